import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry } from '../../../src/domain/ports.js';
import { activityEntry } from './activity-entry.js';
import { openTempStore, type TempStore } from './temp-store.js';

function entry(overrides: Partial<ActivityEntry> = {}): ActivityEntry {
  return activityEntry({
    trace_id: '0af7651916cd43dd8448eb211c80319c',
    guard: 'credential_flagged,redacted',
    ...overrides,
  });
}

/** Rows of every shape the daemon writes: a call, a refused call, an admin action. */
const ENTRIES: ActivityEntry[] = [
  entry(),
  entry({ outcome: 'error', error_code: 'RPC_-32602', guard: null, duration_ms: 0 }),
  {
    at: '2026-01-01T00:00:02.000Z',
    trace_id: null,
    session_id: null,
    client_name: null,
    client_version: null,
    server: null,
    capability_type: 'admin',
    capability_key: null,
    action: 'server.add',
    duration_ms: null,
    outcome: 'ok',
    error_code: null,
  },
];

describe('the prepared activity insert', () => {
  let prepared: TempStore;
  let viaKysely: TempStore;

  beforeEach(async () => {
    prepared = await openTempStore();
    viaKysely = await openTempStore();
  });

  afterEach(async () => {
    await prepared.dispose();
    await viaKysely.dispose();
  });

  const everyColumn = (t: TempStore) =>
    t.store.db.selectFrom('activity').selectAll().orderBy('id').execute();

  it('writes exactly the rows kysely wrote before it, every column', async () => {
    // An entry object may carry more than the row keeps: the extra field must not matter.
    const withExtra = ENTRIES.map((item) => ({ ...item, id: 99, arguments: { path: '/x' } }));
    await prepared.repos.activity.append(withExtra);
    // What the repository did before: one multi-row INSERT of the same fields.
    await viaKysely.store.db
      .insertInto('activity')
      .values(ENTRIES.map((item) => ({ ...item, guard: item.guard ?? null })))
      .execute();
    const rows = await everyColumn(prepared);
    expect(rows).toHaveLength(3);
    expect(rows).toEqual(await everyColumn(viaKysely));
    expect((await prepared.repos.activity.query({})).map(({ id: _, ...row }) => row)).toEqual(
      [...ENTRIES].reverse().map((item) => ({ ...item, guard: item.guard ?? null })),
    );
  });

  it('prepares its statement once per database', async () => {
    const connection = await prepared.store.withConnection((raw) => raw);
    const prepare = vi.spyOn(connection, 'prepare');
    for (let i = 0; i < 3; i++) await prepared.repos.activity.append(ENTRIES);
    expect(prepare.mock.calls.filter(([text]) => text.includes('insert into'))).toHaveLength(1);
    expect(await prepared.repos.activity.count()).toBe(9);
  });

  it.each([
    ['the first append', 0],
    ['an append after others', 1],
  ])(
    'never lands inside a kysely transaction still open, nor in its rollback: %s',
    async (_, before) => {
      for (let i = 0; i < before; i++) await prepared.repos.activity.append(ENTRIES);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let opened!: () => void;
      const open = new Promise<void>((resolve) => (opened = resolve));
      const rolledBack = prepared.store.db
        .transaction()
        .execute(async (trx) => {
          await trx.deleteFrom('activity').execute();
          opened();
          await held;
          throw new Error('rolled back on purpose');
        })
        .catch((error: unknown) => error);
      await open;
      const appended = prepared.repos.activity.append(ENTRIES);
      release();
      expect(await rolledBack).toMatchObject({ message: 'rolled back on purpose' });
      await appended;
      expect(await prepared.repos.activity.count()).toBe(3 + 3 * before);
    },
  );
});
