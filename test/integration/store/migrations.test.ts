import { statSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Store } from '../../../src/store/database.js';
import { knownMigrations, migrateDown, migrateToLatest } from '../../../src/store/migrator.js';
import { makeTempDir, removeTempDir } from './temp-store.js';

const ourTables = [
  'activity',
  'mcp_capability_preferences',
  'mcp_servers',
  'upstream_processes',
] as const;

async function tableNames(db: Kysely<unknown>): Promise<string[]> {
  const result = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' order by name`.execute(db);
  return result.rows.map((row) => row.name);
}

async function pragma(db: Kysely<unknown>, name: string): Promise<unknown> {
  const result = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(db);
  const row = result.rows[0];
  return row === undefined ? undefined : Object.values(row)[0];
}

describe('migrations', () => {
  let dir: string;
  let path: string;
  const opened: Store[] = [];

  async function open(migrate = true): Promise<Store> {
    const store = await openDatabase(path, { migrate });
    opened.push(store);
    return store;
  }

  beforeEach(() => {
    dir = makeTempDir();
    path = join(dir, 'coffer.db');
  });

  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    removeTempDir(dir);
  });

  it('runs up, down and up again on a real file', async () => {
    const store = await open(false);
    const db = store.db as Kysely<unknown>;

    expect((await migrateToLatest(db)).executed).toEqual(knownMigrations());
    expect(await tableNames(db)).toEqual(expect.arrayContaining([...ourTables]));

    expect((await migrateDown(db, knownMigrations().length)).executed).toEqual(
      [...knownMigrations()].reverse(),
    );
    const afterDown = await tableNames(db);
    for (const table of ourTables) expect(afterDown).not.toContain(table);

    expect((await migrateToLatest(db)).executed).toEqual(knownMigrations());
    expect(await tableNames(db)).toEqual(expect.arrayContaining([...ourTables]));
    // Nothing left to do: a second run is a no-op.
    expect((await migrateToLatest(db)).executed).toEqual([]);
  });

  it('0005 adds shared to servers registered before it, false (0) for each', async () => {
    const store = await open(false);
    const db = store.db as Kysely<unknown>;
    await migrateToLatest(db);
    expect((await migrateDown(db, 1)).executed).toEqual(['0005-server-shared']);
    await sql`insert into mcp_servers (name, transport, command, created_at, updated_at)
      values ('old', 'stdio', 'npx', 't', 't')`.execute(db);
    expect((await migrateToLatest(db)).executed).toEqual(['0005-server-shared']);
    const rows = await sql<{ name: string; shared: number }>`
      select name, shared from mcp_servers`.execute(db);
    expect(rows.rows).toEqual([{ name: 'old', shared: 0 }]);
    // A row written without the column gets the default; only 0 and 1 are stored.
    await sql`insert into mcp_servers (name, transport, command, created_at, updated_at)
      values ('new', 'stdio', 'npx', 't', 't')`.execute(db);
    const fresh = await sql<{ shared: number }>`
      select shared from mcp_servers where name = 'new'`.execute(db);
    expect(fresh.rows).toEqual([{ shared: 0 }]);
    await expect(sql`update mcp_servers set shared = 2`.execute(db)).rejects.toThrow(/CHECK/);
  });

  it('migrates to latest when opened, and again is a no-op', async () => {
    const first = await open();
    expect(await tableNames(first.db as Kysely<unknown>)).toEqual(
      expect.arrayContaining([...ourTables]),
    );
    await first.close();
    const second = await open();
    expect((await migrateToLatest(second.db as Kysely<unknown>)).executed).toEqual([]);
  });

  it('applies every PRAGMA on a new connection', async () => {
    await (await open()).close();
    const db = (await open()).db as Kysely<unknown>;
    expect(await pragma(db, 'journal_mode')).toBe('wal');
    expect(await pragma(db, 'foreign_keys')).toBe(1);
    expect(await pragma(db, 'synchronous')).toBe(1);
    expect(await pragma(db, 'busy_timeout')).toBe(5000);
    expect(await pragma(db, 'cache_size')).toBe(-64000);
    expect(await pragma(db, 'temp_store')).toBe(2);
  });

  // better-sqlite3's build already defaults foreign_keys=1, busy_timeout=5000 and (under
  // WAL) synchronous=NORMAL; we set them anyway so a different build can't change them.
  // cache_size and temp_store show that a connection not made by openConnection lacks them.
  it('needs them: a bare connection keeps WAL (per file) but not the per-connection ones', async () => {
    await (await open()).close();
    const bare = new BetterSqlite3(path);
    try {
      expect(bare.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(bare.pragma('cache_size', { simple: true })).not.toBe(-64000);
      expect(bare.pragma('temp_store', { simple: true })).not.toBe(2);
    } finally {
      bare.close();
    }
  });

  it('creates the database file with mode 0600, whatever the umask', async () => {
    const previous = process.umask(0o022);
    try {
      await open();
    } finally {
      process.umask(previous);
    }
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(`${path}-wal`).mode & 0o777).toBe(0o600);
  });

  it('refuses a database written by a newer Coffer', async () => {
    const store = await open();
    await sql`insert into kysely_migration (name, timestamp) values ('9999-future', '2099-01-01')`.execute(
      store.db,
    );
    await store.close();
    await expect(openDatabase(path)).rejects.toMatchObject({
      code: 'STORE_FAILURE',
      message: expect.stringContaining('newer Coffer'),
    });
  });

  it('reports a missing directory as STORE_FAILURE', async () => {
    await expect(openDatabase(join(dir, 'missing', 'coffer.db'))).rejects.toMatchObject({
      code: 'STORE_FAILURE',
    });
  });
});
