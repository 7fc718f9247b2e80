import { describe, expect, it } from 'vitest';
import type { JsonObject, UpstreamConnection } from '../../../src/domain/ports.js';
import { TaskRegistry, type TaskOwner } from '../../../src/gateway/task-registry.js';
import { ManualClock } from './router/session-harness.js';

/** A connection that only knows its server and whether it ended. */
function connection(server: string): UpstreamConnection & { end: () => void } {
  let end!: () => void;
  const closed = new Promise<void>((resolve) => (end = resolve));
  return {
    server,
    serverCapabilities: {},
    request: () => Promise.resolve({}),
    notify: () => Promise.resolve(),
    close: () => Promise.resolve(end()),
    closed,
    end,
  };
}

function owner(): TaskOwner & { open: boolean; notes: JsonObject[] } {
  const notes: JsonObject[] = [];
  return { open: true, notes, notify: (_method, params) => notes.push(params) };
}

/** What a closed session hands the registry, recording what is closed. */
function held() {
  const closed: string[] = [];
  return {
    closed,
    closeAll: () => Promise.resolve(void closed.push('*')),
    evict: (server: string) => Promise.resolve(void closed.push(server)),
  };
}

function registry() {
  const clock = new ManualClock();
  const timers: string[] = [];
  let counter = 0;
  const tasks = new TaskRegistry({
    clock,
    entropy: () => (++counter).toString(16).padStart(32, '0'),
    every: () => {
      timers.push('started');
      return () => timers.push('stopped');
    },
  });
  return { clock, tasks, timers };
}

const working = (taskId: string, ttl: unknown = 10_000) => ({ taskId, status: 'working', ttl });

describe('the task registry', () => {
  it('mints ids from fresh entropy and maps them both ways', () => {
    const { tasks } = registry();
    const me = owner();
    const upstream = connection('fx');
    const a = tasks.record(me, upstream, working('up-1'));
    const b = tasks.record(me, upstream, working('up-2'));
    expect([a.id, b.id]).toEqual([`fx__${'0'.repeat(31)}1`, `fx__${'0'.repeat(31)}2`]);
    expect(tasks.fromUpstream(me, 'fx', 'up-2')).toBe(b);
    expect(tasks.fromUpstream(owner(), 'fx', 'up-2')).toBeUndefined();
    expect(tasks.claim(me, a.id)).toBe(a);
  });

  it("lets a session claim a closed session's task, never a live one's", () => {
    const { tasks } = registry();
    const [first, second, third] = [owner(), owner(), owner()];
    const entry = tasks.record(first, connection('fx'), working('up-1'));
    expect(() => tasks.claim(second, entry.id)).toThrow(/Unknown task/);
    first.open = false;
    expect(tasks.claim(second, entry.id).owner).toBe(second);
    expect(() => tasks.claim(third, entry.id)).toThrow(/Unknown task/);
    expect(tasks.owned(second)).toEqual([entry]);
    expect(tasks.owned(first)).toEqual([]);
  });

  it('holds only what a running task needs, and closes it when the task is done with', () => {
    const { tasks } = registry();
    const me = owner();
    const running = tasks.record(me, connection('fx'), working('up-1'));
    tasks.record(me, connection('other'), { ...working('up-2'), status: 'cancelled' });
    me.open = false;
    const connections = held();
    expect([...tasks.release(me, connections)]).toEqual(['fx']);
    tasks.sweep();
    expect(connections.closed).toEqual([]);
    running.fetched = true;
    tasks.settled(running);
    expect(connections.closed).toEqual(['*']);
    expect(() => tasks.claim(owner(), running.id)).toThrow(/Unknown task/);
  });

  it('keeps a fetched task while the session that took it over lives', () => {
    const { tasks } = registry();
    const [first, second] = [owner(), owner()];
    const entry = tasks.record(first, connection('fx'), working('up-1'));
    first.open = false;
    const connections = held();
    tasks.release(first, connections);
    tasks.claim(second, entry.id).fetched = true;
    tasks.settled(entry);
    expect(connections.closed).toEqual([]);
    expect(tasks.claim(second, entry.id)).toBe(entry);
    second.open = false;
    expect([...tasks.release(second, held())]).toEqual([]);
    expect(connections.closed).toEqual(['*']);
  });

  it('forgets the tasks of a connection that ended', async () => {
    const { tasks } = registry();
    const me = owner();
    const upstream = connection('fx');
    const entry = tasks.record(me, upstream, working('up-1'));
    upstream.end();
    await upstream.closed;
    await Promise.resolve();
    expect(() => tasks.claim(me, entry.id)).toThrow(/Unknown task/);
  });

  it('evicts a redefined server from held connections, and closes all at shutdown', async () => {
    const { tasks, timers } = registry();
    const me = owner();
    tasks.record(me, connection('fx'), working('up-1', null));
    me.open = false;
    const connections = held();
    tasks.release(me, connections);
    await tasks.serverChanged('fx');
    expect(connections.closed).toEqual(['fx']);
    await tasks.closeAll();
    expect(connections.closed).toEqual(['fx', '*']);
    expect(timers).toEqual(['started', 'stopped']);
  });

  it('holds an unlimited task for the cap only', () => {
    const { tasks, clock } = registry();
    const me = owner();
    const entry = tasks.record(me, connection('fx'), working('up-1', null));
    clock.advance(60 * 60_000 - 1);
    expect(tasks.claim(me, entry.id)).toBe(entry);
    clock.advance(1);
    expect(() => tasks.claim(me, entry.id)).toThrow(/Unknown task/);
  });
});
