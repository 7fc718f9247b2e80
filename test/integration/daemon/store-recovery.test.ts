import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { writePrivateFile } from '../../../src/config/private-files.js';
import { readConfig, type ConfigStores } from '../../../src/domain/config-store.js';
import { CofferError } from '../../../src/domain/errors.js';
import type { ActivityEntry } from '../../../src/domain/ports.js';
import {
  openStore,
  restoreSnapshot,
  type OpenedStore,
} from '../../../src/daemon/store-recovery.js';
import { pinSnapshotOf } from '../../../src/daemon/pin-snapshot.js';
import { openDatabase } from '../../../src/store/database.js';
import { createRepositories } from '../../../src/store/repositories.js';
import { FakeClock, makeTempDir, removeTempDir } from '../store/temp-store.js';

/**
 * The daemon's database is checked at start; a damaged one is set aside and a new one
 * filled from config-snapshot.json, or, without a snapshot to fill it from, the daemon
 * refuses to start and changes nothing (src/daemon/store-recovery.ts). Real SQLite files.
 */
const dirs: string[] = [];
const opened: OpenedStore[] = [];
afterEach(async () => {
  for (const { store } of opened.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) removeTempDir(dir);
});

const clock = new FakeClock('2026-12-07T10:00:00.000Z');

function pathsIn(dir: string) {
  return {
    database: join(dir, 'coffer.db'),
    configSnapshot: join(dir, 'config-snapshot.json'),
    pinSnapshot: join(dir, 'tool-pins-snapshot.json'),
  };
}

async function open(dir: string): Promise<OpenedStore> {
  const result = await openStore({ paths: pathsIn(dir), now: () => clock.now() });
  opened.push(result);
  return result;
}

const hashOf = (digit: string) => digit.repeat(64);

/**
 * A home with one server, a switch, a policy and two tool pins (one with a change waiting
 * for review), its snapshots written as the daemon writes them.
 */
async function seededHome(options: { snapshot?: boolean } = {}): Promise<string> {
  const dir = makeTempDir();
  dirs.push(dir);
  const store = await openDatabase(pathsIn(dir).database);
  const repos = createRepositories(store, clock);
  await repos.servers.create({
    name: 'files',
    transport: 'stdio',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'],
    env: { MODE: 'ro' },
    headers: {},
    secret_env: ['API_KEY'],
    secret_headers: [],
    enabled: true,
    auto_enable_new_capabilities: true,
    shared: false,
  });
  await repos.preferences.setEnabled('files', 'tool', ['write_file'], false);
  await repos.policies.setTool('files', 'delete_file', 'deny');
  await repos.pins.pin('files', [
    { key: 'read_file', hash: hashOf('a'), definition: { name: 'read_file' } },
    { key: 'move_file', hash: hashOf('b'), definition: { name: 'move_file' } },
  ]);
  await repos.pins.markChanged('files', {
    key: 'move_file',
    hash: hashOf('c'),
    definition: { name: 'move_file', description: 'now deletes too' },
  });
  if (options.snapshot !== false) {
    writePrivateFile(pathsIn(dir).configSnapshot, JSON.stringify(await readConfig(repos)));
    writePrivateFile(pathsIn(dir).pinSnapshot, JSON.stringify(await pinSnapshotOf(repos.pins)));
  }
  await store.close();
  return dir;
}

function setAsideIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('coffer.db.damaged-'));
}

async function configOf(result: OpenedStore, activity: ActivityEntry[] = []) {
  const repos = createRepositories(result.store, clock);
  const report =
    result.restore === undefined
      ? undefined
      : await restoreSnapshot(result.restore, {
          stores: repos,
          pins: repos.pins,
          activity: sink(activity),
          clock,
        });
  return { report, config: await readConfig(repos) };
}

const sink = (entries: ActivityEntry[]) => ({
  record: (entry: ActivityEntry) => entries.push(entry),
});

/** Random bytes over `length` bytes from `offset` (past the end: appended). */
function damage(path: string, offset: number, length: number): void {
  const bytes = readFileSync(path);
  randomBytes(length).copy(bytes, offset);
  writeFileSync(path, bytes);
}

describe('the database at the daemon start', () => {
  it('opens a sound database as it is, setting nothing aside', async () => {
    const dir = await seededHome();
    const result = await open(dir);
    expect(result.restore).toBeUndefined();
    expect(setAsideIn(dir)).toEqual([]);
    const { config } = await configOf(result);
    expect(Object.keys(config.servers)).toEqual(['files']);
  });

  it('sets a file that is not a database aside and restores servers, switches and policies', async () => {
    const dir = await seededHome();
    const expected = JSON.parse(readFileSync(pathsIn(dir).configSnapshot, 'utf8')) as unknown;
    damage(pathsIn(dir).database, 0, 4096);
    const damagedBytes = readFileSync(pathsIn(dir).database);
    const activity: ActivityEntry[] = [];

    const result = await open(dir);
    const { report, config } = await configOf(result, activity);

    expect(config).toEqual(expected);
    expect(config.servers['files']).toMatchObject({
      capabilities: { tool: { write_file: false } },
      policies: { tools: { delete_file: 'deny' } },
      secret_env: ['API_KEY'],
    });
    const aside = setAsideIn(dir);
    expect(aside).toEqual(['coffer.db.damaged-2026-12-07T10-00-00-000Z']);
    expect(readFileSync(join(dir, aside[0]!))).toEqual(damagedBytes);
    expect(report).toMatchObject({
      damagedPath: join(dir, aside[0]!),
      restored: ['files'],
      failed: [],
      pins: 2,
      snapshotAt: statSync(pathsIn(dir).configSnapshot).mtime.toISOString(),
    });
    expect(report?.pinsMissing).toBeUndefined();
    // The pins came back as they were: a changed tool is still held for review.
    const pins = createRepositories(result.store, clock).pins;
    expect(await pins.states('files')).toEqual(
      new Map([
        ['move_file', { hash: hashOf('b'), pending_hash: hashOf('c') }],
        ['read_file', { hash: hashOf('a'), pending_hash: null }],
      ]),
    );
    expect(await pins.held('files')).toMatchObject([
      {
        key: 'move_file',
        pinned: { name: 'move_file' },
        changed: { description: 'now deletes too' },
      },
    ]);
    expect(activity).toMatchObject([
      {
        action: 'database.restore',
        capability_type: 'admin',
        outcome: 'ok',
        capability_key: aside[0],
      },
    ]);
  });

  it('finds damage in pages opening does not read (the activity log) by checking them all', async () => {
    const dir = await seededHome();
    const { database } = pathsIn(dir);
    const raw = new BetterSqlite3(database);
    const insert = raw.prepare(
      "INSERT INTO activity (at, capability_type, action, outcome) VALUES (?, 'tool', 'tools/call', 'ok')",
    );
    raw.transaction(() => {
      for (let row = 0; row < 3000; row += 1)
        insert.run(`2026-12-07T09:${String(row % 60).padStart(2, '0')}:00.000Z`);
    })();
    raw.close();
    const pageSize = 4096;
    const pages = statSync(database).size / pageSize;
    // The last pages are the activity rows and indexes written last, past every table opening reads.
    damage(database, (pages - 3) * pageSize, 3 * pageSize);
    const unchecked = await openDatabase(database);
    await unchecked.close(); // opening and migrating alone do not notice

    const result = await open(dir);
    const { report, config } = await configOf(result);
    expect(report?.restored).toEqual(['files']);
    expect(setAsideIn(dir)).toHaveLength(1);
    expect(Object.keys(config.servers)).toEqual(['files']);
  });

  it('refuses to start without a snapshot, and changes nothing', async () => {
    const dir = await seededHome({ snapshot: false });
    damage(pathsIn(dir).database, 0, 4096);
    const before = readFileSync(pathsIn(dir).database);
    const failure = await open(dir).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CofferError);
    expect(failure).toMatchObject({
      code: 'STORE_FAILURE',
      message: 'The Coffer database is damaged, and there is no snapshot to restore it from',
    });
    expect((failure as CofferError).hint).toContain('coffer config import');
    expect(readFileSync(pathsIn(dir).database)).toEqual(before);
    expect(setAsideIn(dir)).toEqual([]);
  });

  it('refuses to start with a snapshot it cannot read, and changes nothing', async () => {
    const dir = await seededHome();
    writeFileSync(pathsIn(dir).configSnapshot, '{"coffer_config": 1, "servers": {"files": ');
    damage(pathsIn(dir).database, 0, 4096);
    const before = readFileSync(pathsIn(dir).database);
    await expect(open(dir)).rejects.toMatchObject({
      code: 'STORE_FAILURE',
      message:
        'The Coffer database is damaged, and config-snapshot.json, which would restore it, cannot be read either',
    });
    expect(readFileSync(pathsIn(dir).database)).toEqual(before);
    expect(setAsideIn(dir)).toEqual([]);
  });

  it('restores without pins when their snapshot is missing or unreadable, and says why', async () => {
    for (const [write, why] of [
      [undefined, 'there is no tool-pins-snapshot.json'],
      [
        '{"version": 1, "servers": {"files": [{"key": "x"}]}}',
        'tool-pins-snapshot.json cannot be read',
      ],
    ] as const) {
      const dir = await seededHome();
      if (write === undefined) rmSync(pathsIn(dir).pinSnapshot);
      else writeFileSync(pathsIn(dir).pinSnapshot, write);
      damage(pathsIn(dir).database, 0, 4096);
      const { report } = await configOf(await open(dir));
      expect(report).toMatchObject({ restored: ['files'], pins: 0, pinsMissing: why });
    }
  });

  it('restores the servers it can when the new database refuses one, and says which', async () => {
    const dir = await seededHome();
    const snapshot = JSON.parse(readFileSync(pathsIn(dir).configSnapshot, 'utf8')) as {
      servers: Record<string, unknown>;
    };
    snapshot.servers['notes'] = { ...(snapshot.servers['files'] as object) };
    writeFileSync(pathsIn(dir).configSnapshot, JSON.stringify(snapshot));
    damage(pathsIn(dir).database, 0, 4096);
    const result = await open(dir);
    const repos = createRepositories(result.store, clock);
    const stores: ConfigStores = {
      ...repos,
      servers: {
        ...repos.servers,
        list: () => repos.servers.list(),
        update: (name, patch) => repos.servers.update(name, patch),
        create: (definition) =>
          definition.name === 'files'
            ? Promise.reject(new Error('refused'))
            : repos.servers.create(definition),
      },
    };
    const activity: ActivityEntry[] = [];
    const report = await restoreSnapshot(result.restore!, {
      stores,
      pins: repos.pins,
      activity: sink(activity),
      clock,
    });
    expect(report).toMatchObject({ restored: ['notes'], failed: ['files'] });
    expect(activity).toMatchObject([{ outcome: 'error', error_code: 'STORE_FAILURE' }]);
    expect((await repos.servers.list()).map((server) => server.name)).toEqual(['notes']);
  });
});
