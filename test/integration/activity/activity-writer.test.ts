import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ActivityWriter,
  activitySettingsFromEnv,
  DEFAULT_ACTIVITY_SETTINGS,
  readYourWrites,
} from '../../../src/daemon/activity-writer.js';
import type { ActivityEntry, ActivityRepository } from '../../../src/domain/ports.js';
import { createLogger, silentLogger } from '../../../src/observability/logger.js';
import { FakeClock, openTempStore, type TempStore } from '../store/temp-store.js';

const DAY = 86_400_000;

function entry(at: string, key = 'echo'): ActivityEntry {
  return {
    at,
    trace_id: 'a'.repeat(32),
    session_id: 's',
    client_name: 'test',
    client_version: '1',
    server: 'fx',
    capability_type: 'tool',
    capability_key: key,
    action: 'tools/call',
    duration_ms: 3,
    outcome: 'ok',
    error_code: null,
  };
}

describe('ActivityWriter', () => {
  let temp: TempStore;
  let clock: FakeClock;
  beforeEach(async () => {
    clock = new FakeClock('2026-03-01T00:00:00.000Z');
    temp = await openTempStore(clock);
  });
  afterEach(() => temp.dispose());

  const writer = (overrides: Partial<ConstructorParameters<typeof ActivityWriter>[0]> = {}) =>
    new ActivityWriter({
      ...DEFAULT_ACTIVITY_SETTINGS,
      repository: temp.repos.activity,
      clock,
      logger: silentLogger(),
      ...overrides,
    });

  it('queues on record and writes in batches off the caller’s path', async () => {
    const sink = writer({ flushDelayMs: 10_000, batchSize: 1000 });
    for (let i = 0; i < 5; i++) sink.record(entry(clock.iso(), `t${i}`));
    expect(await temp.repos.activity.count()).toBe(0);
    await sink.flush();
    expect(await temp.repos.activity.count()).toBe(5);
    const keys = (await temp.repos.activity.query({})).map((row) => row.capability_key);
    expect(keys).toEqual(['t4', 't3', 't2', 't1', 't0']);
    await sink.close();
  });

  it('writes the log line after the caller has answered, and any still pending on close', async () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => lines.push(line) } });
    const sink = writer({ logger });
    sink.record(entry(clock.iso(), 'first'));
    expect(lines).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      msg: 'tools/call fx first: ok',
      traceId: 'a'.repeat(32),
      activity: { capability_key: 'first', outcome: 'ok' },
    });
    sink.record(entry(clock.iso(), 'last'));
    await sink.close();
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([
      'tools/call fx first: ok',
      'tools/call fx last: ok',
    ]);
  });

  it('answers a query with every entry recorded before it, queued ones included', async () => {
    const sink = writer({ flushDelayMs: 600_000, batchSize: 1000 });
    const reads = readYourWrites(sink, temp.repos.activity);
    sink.record(entry(clock.iso(), 'just-now'));
    const keys = (await reads.query({})).map((row) => row.capability_key);
    expect(keys).toEqual(['just-now']);
    await sink.close();
  });

  it('writes a full batch at once and flushes the rest on close', async () => {
    // The delay is far past the poll's limit, so only the full batches can be what it sees.
    const sink = writer({ flushDelayMs: 600_000, batchSize: 3 });
    for (let i = 0; i < 7; i++) sink.record(entry(clock.iso()));
    await expect.poll(() => temp.repos.activity.count()).toBeGreaterThanOrEqual(6);
    await sink.close();
    expect(await temp.repos.activity.count()).toBe(7);
    sink.record(entry(clock.iso()));
    await sink.flush();
    expect(await temp.repos.activity.count()).toBe(7);
  });

  it('retention deletes rows past the age limit and past the row limit (injected clock)', async () => {
    const old = new Date(clock.now().getTime() - 40 * DAY).toISOString();
    const recent = new Date(clock.now().getTime() - 1 * DAY).toISOString();
    await temp.repos.activity.append([entry(old, 'old1'), entry(old, 'old2')]);
    await temp.repos.activity.append(Array.from({ length: 6 }, (_, i) => entry(recent, `new${i}`)));
    const sink = writer({ retention: { maxAgeMs: 30 * DAY, maxRows: 4 } });
    await sink.start();
    const kept = (await temp.repos.activity.query({})).map((row) => row.capability_key);
    expect(kept).toEqual(['new5', 'new4', 'new3', 'new2']);

    // Time passes: what was recent is now past the age limit too.
    clock.advance(30 * DAY);
    expect(await sink.prune()).toBe(4);
    expect(await temp.repos.activity.count()).toBe(0);
    await sink.close();
  });

  it('enforces retention periodically after the start', async () => {
    const sink = writer({ retention: { maxAgeMs: DAY, maxRows: 2 }, pruneIntervalMs: 20 });
    await sink.start();
    await temp.repos.activity.append(Array.from({ length: 5 }, () => entry(clock.iso())));
    await expect.poll(() => temp.repos.activity.count()).toBe(2);
    await sink.close();
  });

  it('never throws from record, and retries a batch the store refused', async () => {
    let failures = 2;
    const written: ActivityEntry[] = [];
    const flaky: Pick<ActivityRepository, 'append' | 'prune'> = {
      append: (entries) => {
        if (failures-- > 0) return Promise.reject(new Error('disk I/O error'));
        written.push(...entries);
        return Promise.resolve();
      },
      prune: () => Promise.reject(new Error('locked')),
    };
    const sink = writer({ repository: flaky, flushDelayMs: 5 });
    await sink.start(); // a failing prune is logged, not thrown
    expect(() => sink.record(entry(clock.iso(), 'kept'))).not.toThrow();
    await expect.poll(() => written.length).toBe(1);
    expect(written[0]?.capability_key).toBe('kept');
    await sink.close();
  });

  it('drops the oldest entries, not the newest, when the store stays down', () => {
    const sink = writer({
      repository: {
        append: () => Promise.reject(new Error('down')),
        prune: () => Promise.resolve(0),
      },
      flushDelayMs: 10_000,
      maxQueued: 3,
    });
    for (let i = 0; i < 5; i++) sink.record(entry(clock.iso(), `k${i}`));
    const queued = (sink as unknown as { queue: ActivityEntry[] }).queue;
    expect(queued.map((row) => row.capability_key)).toEqual(['k2', 'k3', 'k4']);
  });
});

describe('activitySettingsFromEnv', () => {
  it('defaults to 30 days and 100000 rows', () => {
    expect(activitySettingsFromEnv({})).toEqual(DEFAULT_ACTIVITY_SETTINGS);
    expect(DEFAULT_ACTIVITY_SETTINGS.retention).toEqual({ maxAgeMs: 30 * DAY, maxRows: 100_000 });
  });

  it('reads COFFER_ACTIVITY_MAX_AGE_DAYS and COFFER_ACTIVITY_MAX_ROWS', () => {
    const settings = activitySettingsFromEnv({
      COFFER_ACTIVITY_MAX_AGE_DAYS: '0.5',
      COFFER_ACTIVITY_MAX_ROWS: '10',
    });
    expect(settings.retention).toEqual({ maxAgeMs: DAY / 2, maxRows: 10 });
  });

  it('refuses values that would silently keep everything or nothing', () => {
    expect(() => activitySettingsFromEnv({ COFFER_ACTIVITY_MAX_ROWS: '1.5' })).toThrow(/whole/);
    expect(() => activitySettingsFromEnv({ COFFER_ACTIVITY_MAX_AGE_DAYS: '-1' })).toThrow(
      /positive/,
    );
    expect(() => activitySettingsFromEnv({ COFFER_ACTIVITY_MAX_ROWS: 'lots' })).toThrow(/lots/);
  });
});
