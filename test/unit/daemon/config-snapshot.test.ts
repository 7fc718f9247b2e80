import { describe, expect, it } from 'vitest';
import type { ConfigFile } from '../../../src/domain/config-file.js';
import type { ActivityEntry, DaemonEvent, Schedule } from '../../../src/domain/ports.js';
import { ConfigSnapshot } from '../../../src/daemon/config-snapshot.js';

/** A schedule the test runs by hand: what is due, and whether it was cancelled. */
class ManualSchedule {
  readonly due: { work: () => void; ms: number; cancelled: boolean }[] = [];

  readonly schedule: Schedule = (work, ms) => {
    const entry = { work, ms, cancelled: false };
    this.due.push(entry);
    return () => {
      entry.cancelled = true;
    };
  };

  runDue(): void {
    for (const entry of this.due.splice(0)) if (!entry.cancelled) entry.work();
  }
}

function config(servers: string[]): ConfigFile {
  return {
    coffer_config: 1,
    servers: Object.fromEntries(
      servers.map((name) => [name, { transport: 'stdio', command: name }]),
    ) as ConfigFile['servers'],
  };
}

function setUp(options: { failWrites?: number } = {}) {
  let current = config(['files']);
  let failures = options.failWrites ?? 0;
  const written: string[] = [];
  const warnings: unknown[] = [];
  const timers = new ManualSchedule();
  const snapshot = new ConfigSnapshot({
    path: '/home/me/.coffer/config-snapshot.json',
    read: () => Promise.resolve(current),
    schedule: timers.schedule,
    delayMs: 250,
    write: (path, text) => {
      if (failures > 0) {
        failures -= 1;
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      }
      written.push(`${path}\n${text}`);
    },
    logger: { warn: (...args: unknown[]) => warnings.push(args) } as never,
  });
  return {
    snapshot,
    timers,
    written,
    warnings,
    set: (servers: string[]) => (current = config(servers)),
    failNext: () => (failures += 1),
  };
}

/** Lets a write a due timer started finish, without starting one (as flush would). */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Lets the write a due timer started finish. */
const settle = (snapshot: ConfigSnapshot): Promise<void> => snapshot.flush();

const entry = (capability_type: string): ActivityEntry => ({
  at: '2026-12-07T10:00:00.000Z',
  trace_id: null,
  session_id: null,
  client_name: null,
  client_version: null,
  server: 'files',
  capability_type,
  capability_key: null,
  action: capability_type === 'admin' ? 'policy.set' : 'tools/call',
  duration_ms: null,
  outcome: 'ok',
  error_code: null,
});

describe('ConfigSnapshot', () => {
  it('writes what an export prints, as indented JSON, at the first flush', async () => {
    const { snapshot, written } = setUp();
    await snapshot.flush();
    expect(written).toEqual([
      `/home/me/.coffer/config-snapshot.json\n${JSON.stringify(config(['files']), null, 2)}\n`,
    ]);
  });

  it('writes a burst of changes once, after the delay, with the state at that time', async () => {
    const { snapshot, timers, written, set } = setUp();
    await snapshot.flush();
    set(['files', 'github']);
    snapshot.changed();
    set(['files', 'github', 'notes']);
    snapshot.changed();
    snapshot.changed();
    expect(timers.due.map((due) => due.ms)).toEqual([250]);
    expect(written).toHaveLength(1);
    timers.runDue();
    await settle(snapshot);
    expect(written).toHaveLength(2);
    expect(written[1]).toContain('"notes"');
  });

  it('does not write a text that has not changed', async () => {
    const { snapshot, timers, written } = setUp();
    await snapshot.flush();
    snapshot.changed();
    timers.runDue();
    await settle(snapshot);
    expect(written).toHaveLength(1);
  });

  it('a flush takes a pending change with it, and its timer does not write again', async () => {
    const { snapshot, timers, written, set } = setUp();
    set(['github']);
    snapshot.changed();
    await snapshot.flush();
    expect(timers.due[0]?.cancelled).toBe(true);
    expect(written).toHaveLength(1);
    expect(written[0]).toContain('"github"');
  });

  it('logs a failed write, never throws, and writes at the next change', async () => {
    const { snapshot, timers, written, warnings } = setUp({ failWrites: 1 });
    await expect(snapshot.flush()).resolves.toBeUndefined();
    expect(written).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(snapshot.lastFailure()).toEqual({ file: 'config-snapshot.json', why: 'ENOSPC' });
    snapshot.changed();
    timers.runDue();
    await settle(snapshot);
    expect(written).toHaveLength(1);
    expect(snapshot.lastFailure()).toBeUndefined();
  });

  it('after a failed write, writes even a text it wrote before', async () => {
    const { snapshot, timers, written, set, failNext } = setUp();
    await snapshot.flush();
    set(['files', 'github']);
    failNext();
    snapshot.changed();
    timers.runDue();
    await tick();
    set(['files']); // back to what was written first: what is on disk is not known now
    snapshot.changed();
    timers.runDue();
    await tick();
    expect(written).toHaveLength(2); // the failed write is not among them
    expect(written[1]).toBe(written[0]);
  });

  it('follows changes of the configuration, not server states or calls', () => {
    const follows = (event: DaemonEvent): boolean => ConfigSnapshot.follows(event);
    expect(follows({ type: 'server.added', server: 'files' })).toBe(true);
    expect(follows({ type: 'server.removed', server: 'files' })).toBe(true);
    expect(follows({ type: 'server.changed', server: 'files' })).toBe(true);
    expect(
      follows({
        type: 'capability.toggled',
        server: 'files',
        capability_type: 'tool',
        keys: ['write_file'],
        enabled: false,
      }),
    ).toBe(true);
    expect(follows({ type: 'activity.recorded', entry: entry('admin') })).toBe(true);
    expect(follows({ type: 'activity.recorded', entry: entry('tool') })).toBe(false);
    expect(
      follows({
        type: 'server.state',
        server: 'files',
        status: { state: 'running', last_error: null, counts: null },
      }),
    ).toBe(false);
  });
});
