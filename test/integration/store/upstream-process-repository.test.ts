import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UpstreamProcessRecord } from '../../../src/domain/ports.js';
import { openDatabase } from '../../../src/store/database.js';
import { createRepositories } from '../../../src/store/repositories.js';
import { openTempStore, type TempStore } from './temp-store.js';

function record(
  pid: number,
  overrides: Partial<UpstreamProcessRecord> = {},
): UpstreamProcessRecord {
  return {
    pid,
    start_time: `${pid * 10}`,
    command_line: `npx -y server-files --pid ${pid}`,
    server: 'files',
    session_id: 'session-1',
    ...overrides,
  };
}

describe('SqliteUpstreamProcessRepository', () => {
  let t: TempStore;

  beforeEach(async () => {
    t = await openTempStore();
  });

  afterEach(async () => {
    await t.dispose();
  });

  it('records, lists, removes and clears', async () => {
    await t.repos.upstreamProcesses.record(record(300));
    await t.repos.upstreamProcesses.record(record(200, { session_id: null, server: 'git' }));
    expect(await t.repos.upstreamProcesses.list()).toEqual([
      record(200, { session_id: null, server: 'git' }),
      record(300),
    ]);
    await t.repos.upstreamProcesses.remove(200);
    await t.repos.upstreamProcesses.remove(999); // unknown pid: nothing to do
    expect(await t.repos.upstreamProcesses.list()).toEqual([record(300)]);
    await t.repos.upstreamProcesses.clear();
    expect(await t.repos.upstreamProcesses.list()).toEqual([]);
  });

  it('replaces the row of a recycled pid', async () => {
    await t.repos.upstreamProcesses.record(record(300));
    t.clock.advance(1000);
    const recycled = record(300, {
      start_time: '99999',
      command_line: 'uvx other',
      server: 'other',
    });
    await t.repos.upstreamProcesses.record(recycled);
    expect(await t.repos.upstreamProcesses.list()).toEqual([recycled]);
    const row = await t.store.db
      .selectFrom('upstream_processes')
      .select('recorded_at')
      .executeTakeFirst();
    expect(row?.recorded_at).toBe('2026-01-01T00:00:01.000Z');
  });

  it('outlives the server it names, so the orphan sweep still sees it', async () => {
    await t.repos.upstreamProcesses.record(record(300, { server: 'gone' }));
    expect(await t.repos.upstreamProcesses.list()).toHaveLength(1);
  });

  it('survives a reopen of the database (the point of the sweep)', async () => {
    await t.repos.upstreamProcesses.record(record(300));
    await t.store.close();
    const reopened = await openDatabase(t.path);
    try {
      expect(await createRepositories(reopened, t.clock).upstreamProcesses.list()).toEqual([
        record(300),
      ]);
    } finally {
      await reopened.close();
    }
  });
});
