import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src/domain/ports.js';
import { MAX_ACTIVITY_PAGE } from '../../../src/store/activity-repository.js';
import { activityEntry } from './activity-entry.js';
import { openTempStore, type TempStore } from './temp-store.js';

const MINUTE = 60_000;

const entry = activityEntry;

describe('SqliteActivityRepository', () => {
  let t: TempStore;

  /** One entry per minute from the clock's start, `server` alternating files/git. */
  async function appendMinutes(count: number): Promise<void> {
    const entries: ActivityEntry[] = [];
    for (let i = 0; i < count; i += 1) {
      entries.push(
        entry({
          at: t.clock.iso(),
          server: i % 2 === 0 ? 'files' : 'git',
          outcome: i % 3 === 0 ? 'error' : 'ok',
          error_code: i % 3 === 0 ? 'UPSTREAM_TIMEOUT' : null,
          capability_key: `k${i}`,
        }),
      );
      t.clock.advance(MINUTE);
    }
    await t.repos.activity.append(entries);
  }

  beforeEach(async () => {
    t = await openTempStore();
  });

  afterEach(async () => {
    await t.dispose();
  });

  it('appends a batch and reads every field back, newest first', async () => {
    const admin = entry({
      at: '2026-01-01T00:00:01.000Z',
      trace_id: null,
      session_id: null,
      client_name: null,
      client_version: null,
      server: null,
      capability_type: 'admin',
      capability_key: null,
      action: 'server.add',
      duration_ms: null,
      outcome: 'error',
      error_code: 'SERVER_EXISTS',
    });
    await t.repos.activity.append([entry(), admin]);
    const rows = await t.repos.activity.query({});
    expect(rows).toEqual([
      { id: 2, ...admin },
      { id: 1, ...entry() },
    ]);
    await t.repos.activity.append([]);
    expect(await t.repos.activity.count()).toBe(2);
  });

  it('appends all or nothing', async () => {
    const bad = { ...entry(), outcome: 'maybe' } as unknown as ActivityEntry;
    await expect(t.repos.activity.append([entry(), bad])).rejects.toMatchObject({
      code: 'STORE_FAILURE',
    });
    expect(await t.repos.activity.count()).toBe(0);
  });

  it('filters by server, since and outcome, together', async () => {
    await appendMinutes(12);
    const files = await t.repos.activity.query({ server: 'files' });
    expect(files).toHaveLength(6);
    expect(files.every((row) => row.server === 'files')).toBe(true);

    const since = await t.repos.activity.query({ since: '2026-01-01T00:10:00.000Z' });
    expect(since.map((row) => row.capability_key)).toEqual(['k11', 'k10']);

    const errors = await t.repos.activity.query({ outcome: 'error' });
    expect(errors.map((row) => row.capability_key)).toEqual(['k9', 'k6', 'k3', 'k0']);

    const combined = await t.repos.activity.query({
      server: 'files',
      outcome: 'error',
      since: '2026-01-01T00:01:00.000Z',
    });
    expect(combined.map((row) => row.capability_key)).toEqual(['k6']);
  });

  it('keeps what the secret guard did, and filters by any or one guard event', async () => {
    await t.repos.activity.append([
      entry({ capability_key: 'plain' }),
      entry({ capability_key: 'both', guard: 'credential_flagged,redacted' }),
      entry({ capability_key: 'blocked', outcome: 'error', guard: 'secret_blocked' }),
    ]);
    const keys = async (guard: string) =>
      (await t.repos.activity.query({ guard })).map((row) => [row.capability_key, row.guard]);
    expect(await keys('any')).toEqual([
      ['blocked', 'secret_blocked'],
      ['both', 'credential_flagged,redacted'],
    ]);
    expect(await keys('redacted')).toEqual([['both', 'credential_flagged,redacted']]);
    expect(await keys('credential_blocked')).toEqual([]);
    expect((await t.repos.activity.query({})).at(-1)?.guard).toBeNull();
  });

  it('pages backwards with limit and before_id', async () => {
    await appendMinutes(7);
    const seen: string[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await t.repos.activity.query({
        limit: 3,
        ...(before === undefined ? {} : { before_id: before }),
      });
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(3);
      seen.push(...page.map((row) => row.capability_key ?? ''));
      before = page.at(-1)!.id;
    }
    expect(seen).toEqual(['k6', 'k5', 'k4', 'k3', 'k2', 'k1', 'k0']);
  });

  it('clamps the page size', async () => {
    await appendMinutes(MAX_ACTIVITY_PAGE + 5);
    expect(await t.repos.activity.query({ limit: 10_000 })).toHaveLength(MAX_ACTIVITY_PAGE);
    expect(await t.repos.activity.query({ limit: 0 })).toHaveLength(1);
    expect(await t.repos.activity.query({})).toHaveLength(100);
  });

  it('prunes by age', async () => {
    await appendMinutes(10); // k0 at 00:00 … k9 at 00:09
    expect(await t.repos.activity.prune('2026-01-01T00:04:00.000Z', 1000)).toBe(4);
    const left = await t.repos.activity.query({});
    expect(left.map((row) => row.capability_key)).toEqual(['k9', 'k8', 'k7', 'k6', 'k5', 'k4']);
  });

  it('prunes by row count, keeping the newest', async () => {
    await appendMinutes(10);
    expect(await t.repos.activity.prune('2000-01-01T00:00:00.000Z', 3)).toBe(7);
    const left = await t.repos.activity.query({});
    expect(left.map((row) => row.capability_key)).toEqual(['k9', 'k8', 'k7']);
    expect(await t.repos.activity.prune('2000-01-01T00:00:00.000Z', 3)).toBe(0);
    expect(await t.repos.activity.prune('2000-01-01T00:00:00.000Z', 0)).toBe(3);
  });

  it('applies both limits: whichever removes more wins, nothing is counted twice', async () => {
    await appendMinutes(10);
    // Age drops k0..k1; count then keeps the newest 5 of the 8 left.
    expect(await t.repos.activity.prune('2026-01-01T00:02:00.000Z', 5)).toBe(5);
    expect((await t.repos.activity.query({})).map((row) => row.capability_key)).toEqual([
      'k9',
      'k8',
      'k7',
      'k6',
      'k5',
    ]);
  });

  it('prunes by retention computed from the injected clock', async () => {
    await appendMinutes(10); // clock now at 00:10
    t.clock.advance(5 * MINUTE); // 00:15: entries older than 00:08 go by age
    const deleted = await t.repos.activity.pruneRetention({ maxAgeMs: 7 * MINUTE, maxRows: 100 });
    expect(deleted).toBe(8);
    expect((await t.repos.activity.query({})).map((row) => row.capability_key)).toEqual([
      'k9',
      'k8',
    ]);
    expect(await t.repos.activity.pruneRetention({ maxAgeMs: 60 * MINUTE, maxRows: 1 })).toBe(1);
  });

  it('keeps ids rising after a prune, so paging stays correct', async () => {
    await appendMinutes(3);
    await t.repos.activity.prune('2000-01-01T00:00:00.000Z', 0);
    await appendMinutes(1);
    const [row] = await t.repos.activity.query({});
    expect(row?.id).toBe(4);
  });
});
