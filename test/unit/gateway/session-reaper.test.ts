import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { SessionActivity } from '../../../src/gateway/session-activity.js';
import { SessionReaper, type Every } from '../../../src/gateway/session-reaper.js';

/** A hand-driven clock and timer: the test decides when time passes and sweeps run. */
function harness(limits = { idleMs: 10_000, graceMs: 1_000 }) {
  let now = 0;
  const timer = { ms: 0, tick: undefined as (() => void) | undefined, cancelled: 0 };
  const every: Every = (ms, tick) => {
    timer.ms = ms;
    timer.tick = tick;
    return () => {
      timer.tick = undefined;
      timer.cancelled += 1;
    };
  };
  const reaped: { name: string; reason: string }[] = [];
  const reaper = new SessionReaper<{ name: string; activity: SessionActivity }>({
    ...limits,
    every,
    reap: (target, reason) => reaped.push({ name: target.name, reason }),
  });
  const session = (name: string) => {
    const target = { name, activity: new SessionActivity(() => now) };
    reaper.track(target);
    return target;
  };
  const advance = (ms: number) => {
    now += ms;
    timer.tick?.();
  };
  return { reaper, session, advance, reaped, timer };
}

/** The bit of an HTTP response the tracker listens to. */
function response(statusCode = 200) {
  const emitter = new EventEmitter() as EventEmitter & { statusCode: number };
  emitter.statusCode = statusCode;
  return emitter;
}

describe('session reaper', () => {
  it('closes a session idle past the limit, not before', () => {
    const { session, advance, reaped } = harness();
    session('quiet');
    advance(9_999);
    expect(reaped).toEqual([]);
    advance(1);
    expect(reaped).toEqual([{ name: 'quiet', reason: 'idle' }]);
  });

  it('keeps a session alive while a request is in flight, and counts idleness from its end', () => {
    const { session, advance, reaped } = harness();
    const busy = session('busy');
    const call = response();
    busy.activity.track('POST', call);
    advance(60_000);
    expect(reaped).toEqual([]);
    call.emit('close');
    advance(9_000);
    expect(reaped).toEqual([]);
    advance(1_000);
    expect(reaped).toEqual([{ name: 'busy', reason: 'idle' }]);
  });

  it('closes a session whose GET stream dropped after the grace period (a killed shim)', () => {
    const { session, advance, reaped } = harness();
    const shim = session('shim');
    const stream = response(200);
    shim.activity.track('GET', stream);
    advance(5_000);
    expect(reaped).toEqual([]); // a live stream is not activity, but it is not lost either
    stream.emit('close');
    advance(999);
    expect(reaped).toEqual([]);
    advance(1);
    expect(reaped).toEqual([{ name: 'shim', reason: 'vanished' }]);
  });

  it('does not take a refused GET, or a stream reopened in time, for a vanished client', () => {
    const { session, advance, reaped } = harness();
    const refused = session('refused');
    const conflict = response(409);
    refused.activity.track('GET', conflict);
    conflict.emit('close');
    const blip = session('blip');
    const first = response(200);
    blip.activity.track('GET', first);
    first.emit('close');
    advance(500);
    blip.activity.track('GET', response(200)); // the shim re-opens it within its retries
    advance(5_000);
    expect(reaped).toEqual([]);
    advance(5_000);
    expect(reaped.map((r) => r.reason)).toEqual(['idle', 'idle']);
  });

  it('a request after the stream dropped shows the client is alive: only idleness reaps it', () => {
    const { session, advance, reaped } = harness();
    const client = session('client');
    const stream = response(200);
    client.activity.track('GET', stream);
    stream.emit('close');
    const post = response(200);
    client.activity.track('POST', post);
    post.emit('close');
    advance(5_000);
    expect(reaped).toEqual([]);
    advance(5_000);
    expect(reaped).toEqual([{ name: 'client', reason: 'idle' }]);
  });

  it('sweeps only while it has sessions, every quarter of the shorter limit', () => {
    const { reaper, session, advance, timer } = harness({ idleMs: 8_000, graceMs: 2_000 });
    expect(timer.tick).toBeUndefined();
    const only = session('only');
    expect(timer.ms).toBe(500);
    expect(timer.tick).toBeDefined();
    reaper.untrack(only);
    expect(timer.cancelled).toBe(1);
    session('again');
    advance(8_000);
    expect(timer.cancelled).toBe(2);
    expect(reaper.size).toBe(0);
  });

  it('closes the session quiet longest when one more than the limit opens, never a busy one', () => {
    let now = 0;
    const reaped: { name: string; reason: string }[] = [];
    const reaper = new SessionReaper<{ name: string; activity: SessionActivity }>({
      idleMs: 60_000,
      graceMs: 60_000,
      maxSessions: 2,
      every: () => () => undefined,
      reap: (target, reason) => reaped.push({ name: target.name, reason }),
    });
    const open = (name: string) => {
      const target = { name, activity: new SessionActivity(() => now) };
      reaper.track(target);
      now += 1_000;
      return target;
    };
    const oldest = open('oldest');
    open('middle');
    // The oldest has a request in flight: it is not the one to go.
    oldest.activity.requestStarted();
    open('third');
    expect(reaped).toEqual([{ name: 'middle', reason: 'crowded' }]);
    expect(reaper.size).toBe(2);
    open('fourth');
    expect(reaped).toEqual([
      { name: 'middle', reason: 'crowded' },
      { name: 'third', reason: 'crowded' },
    ]);
  });
});
