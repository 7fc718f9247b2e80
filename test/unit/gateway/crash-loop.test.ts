import { describe, expect, it } from 'vitest';
import { ServerStates } from '../../../src/gateway/server-states.js';

function clockAt(start: number) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('crash loops', () => {
  it('turns three unexpected exits within a minute into a visible crash-loop state', () => {
    const clock = clockAt(Date.UTC(2026, 0, 1));
    const states = new ServerStates(clock);
    for (let i = 0; i < 2; i++) {
      states.connected('flaky');
      states.disconnected('flaky', true);
    }
    expect(states.status('flaky').state).not.toBe('crash-loop');
    states.connected('flaky');
    states.disconnected('flaky', true);
    expect(states.status('flaky')).toMatchObject({
      state: 'crash-loop',
      last_error: { code: 'UPSTREAM_UNAVAILABLE' },
    });
    clock.advance(61_000);
    expect(states.status('flaky').state).not.toBe('crash-loop');
  });

  it('backs off reconnects after repeated crashes, and a good list clears it', () => {
    const clock = clockAt(0);
    const states = new ServerStates(clock);
    const crash = () => {
      states.connected('flaky');
      states.disconnected('flaky', true);
    };
    expect(states.backoffMs('flaky')).toBe(0);
    crash();
    expect(states.backoffMs('flaky')).toBe(0);
    crash();
    crash();
    expect(states.backoffMs('flaky')).toBe(500);
    for (let i = 0; i < 10; i++) crash();
    expect(states.backoffMs('flaky')).toBe(5_000);
    states.listed('flaky', 'tool', 3);
    expect(states.backoffMs('flaky')).toBe(0);
    expect(states.status('flaky').state).not.toBe('crash-loop');
  });

  it('does not count a deliberate close as a crash', () => {
    const states = new ServerStates(clockAt(0));
    for (let i = 0; i < 5; i++) {
      states.connected('calm');
      states.disconnected('calm', false);
    }
    expect(states.status('calm')).toMatchObject({ state: 'idle', last_error: null });
  });

  it("counts one crash when a server's end closes every session's connection at once", () => {
    const states = new ServerStates(clockAt(0));
    for (let i = 0; i < 4; i++) states.connected('remote');
    for (let i = 0; i < 4; i++) states.disconnected('remote', true, false);
    expect(states.status('remote')).toMatchObject({
      state: 'idle',
      last_error: {
        message: 'Upstream "remote" dropped the connection',
        hint: 'check that it is up and its URL: coffer mcp test remote',
      },
    });
    expect(states.backoffMs('remote')).toBe(0);
    // Served again, then down again: that is a second crash.
    states.connected('remote');
    states.disconnected('remote', true, false);
    states.connected('remote');
    states.disconnected('remote', true, false);
    expect(states.status('remote').state).toBe('crash-loop');
  });
});
