import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverDefinitionSchema } from '../../../src/domain/server-definition.js';
import { openDatabase } from '../../../src/store/database.js';
import { openTempStore, makeTempDir, removeTempDir, type TempStore } from './temp-store.js';

describe('store errors from a real database', () => {
  let t: TempStore;

  beforeEach(async () => {
    t = await openTempStore();
  });

  afterEach(async () => {
    await t.dispose();
  });

  // Waits out busy_timeout (5 s) on purpose: that is the behaviour under test.
  it('reports a write lock held by another process as STORE_FAILURE, after busy_timeout', async () => {
    const other = new BetterSqlite3(t.path);
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    try {
      const attempt = t.repos.servers.create(
        serverDefinitionSchema.parse({ name: 'files', transport: 'stdio', command: 'x' }),
      );
      await expect(attempt).rejects.toMatchObject({
        code: 'STORE_FAILURE',
        message: 'The Coffer database is locked by another process',
        data: { sqlite_code: 'SQLITE_BUSY' },
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
  });
});

describe('opening a file that is not a database', () => {
  let dir: string;

  beforeEach(() => {
    dir = makeTempDir();
  });

  afterEach(() => {
    removeTempDir(dir);
  });

  it('fails with STORE_FAILURE and tells the user what to do', async () => {
    const path = join(dir, 'coffer.db');
    writeFileSync(path, 'this is not sqlite, just some bytes that fill the header. '.repeat(20));
    await expect(openDatabase(path)).rejects.toMatchObject({
      code: 'STORE_FAILURE',
      message: 'coffer.db is not a SQLite database',
      hint: expect.stringContaining('sets the damaged file aside'),
    });
  });
});
