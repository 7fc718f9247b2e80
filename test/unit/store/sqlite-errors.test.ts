import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { guarded, translateStoreError } from '../../../src/store/sqlite-errors.js';

function sqliteError(code: string, message: string): Error {
  return new BetterSqlite3.SqliteError(message, code);
}

describe('translateStoreError', () => {
  it('turns a unique clash on mcp_servers.name into SERVER_EXISTS', () => {
    const error = translateStoreError(
      sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: mcp_servers.name'),
      { server: 'files' },
    );
    expect(error).toMatchObject({
      code: 'SERVER_EXISTS',
      message: 'A server named "files" already exists',
      hint: 'choose another name, or change this one with `coffer mcp edit files`, which keeps its tool choices (`coffer mcp remove files` forgets them)',
    });
  });

  it('names a driver built for another Node.js version, with what to do', () => {
    // What Node throws when better-sqlite3 was compiled for another ABI (nvm switch).
    const dlopen = Object.assign(
      new Error(
        "The module 'better_sqlite3.node'\nwas compiled against a different Node.js version using\n" +
          'NODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 127.',
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    const error = translateStoreError(dlopen);
    expect(error.code).toBe('STORE_FAILURE');
    expect(error.message).toContain('built for another Node.js version');
    expect(error.message).toContain(process.version);
    expect(error.hint).toContain('npm rebuild better-sqlite3');
    // Another dlopen failure (a missing library) stays generic.
    const other = translateStoreError(
      Object.assign(new Error('libc.so.7: cannot open'), { code: 'ERR_DLOPEN_FAILED' }),
    );
    expect(other.message).toBe('Unexpected database error');
  });

  it('does not mistake another unique clash for SERVER_EXISTS', () => {
    const error = translateStoreError(
      sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: activity.id'),
      { server: 'files' },
    );
    expect(error.code).toBe('STORE_FAILURE');
  });

  it('turns a foreign-key failure about a known server into SERVER_NOT_FOUND', () => {
    const error = translateStoreError(
      sqliteError('SQLITE_CONSTRAINT_FOREIGNKEY', 'FOREIGN KEY constraint failed'),
      { server: 'gone' },
    );
    expect(error).toMatchObject({
      code: 'SERVER_NOT_FOUND',
      hint: expect.stringContaining('coffer mcp list'),
    });
  });

  it.each([
    ['SQLITE_BUSY', /locked by another process/, /retry/],
    ['SQLITE_BUSY_SNAPSHOT', /locked by another process/, /retry/],
    ['SQLITE_READONLY', /read-only/, /writable/],
    ['SQLITE_READONLY_DBMOVED', /read-only/, /writable/],
    ['SQLITE_FULL', /disk .* is full/, /free some disk space/],
    ['SQLITE_IOERR_WRITE', /I\/O error/, /check the disk/],
    ['SQLITE_CORRUPT', /damaged/, /restores your servers, switches and policies/],
    ['SQLITE_NOTADB', /not a SQLite database/, /restores your servers, switches and policies/],
    ['SQLITE_CANTOPEN', /Cannot open/, /writable/],
  ])('maps %s to STORE_FAILURE with advice', (code, message, hint) => {
    const cause = sqliteError(code, 'near "SELECT secret FROM x": syntax');
    const error = translateStoreError(cause);
    expect(error.code).toBe('STORE_FAILURE');
    expect(error.message).toMatch(message);
    expect(error.hint).toMatch(hint);
    expect(error.cause).toBe(cause);
    expect(error.data).toEqual({ sqlite_code: code });
  });

  it('never puts SQL or SQLite text in the user-facing message', () => {
    const cause = sqliteError(
      'SQLITE_ERROR',
      'no such column: secret_value in "SELECT secret_value"',
    );
    const error = translateStoreError(cause);
    expect(error.code).toBe('STORE_FAILURE');
    expect(error.userMessage).not.toMatch(/select|secret|column/i);
    expect(error.cause).toBe(cause);
  });

  it('wraps a non-SQLite error as STORE_FAILURE and keeps CofferErrors as they are', () => {
    const plain = translateStoreError(new TypeError('boom at /home/me/.coffer'));
    expect(plain.code).toBe('STORE_FAILURE');
    expect(plain.message).not.toContain('/home/me');
    const own = new CofferError('INVALID_INPUT', 'bad');
    expect(translateStoreError(own)).toBe(own);
  });
});

describe('guarded', () => {
  it('passes results through and translates failures', async () => {
    await expect(guarded({}, () => Promise.resolve(42))).resolves.toBe(42);
    await expect(
      guarded({ server: 'x' }, () =>
        Promise.reject(
          sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: mcp_servers.name'),
        ),
      ),
    ).rejects.toMatchObject({ code: 'SERVER_EXISTS' });
  });
});
