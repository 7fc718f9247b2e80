import { describe, expect, it } from 'vitest';
import type { BenchSession, Target, TargetId } from '../../../bench/targets.js';
import { measureThroughput } from '../../../bench/throughput.js';

/** A target whose sessions count their calls; nothing runs but the counting. */
function countingTarget(id: TargetId, ownUpstream: boolean) {
  const calls: number[] = [];
  const target: Target = {
    id,
    relayPid: undefined,
    shimmed: false,
    ownUpstream,
    open: () => {
      const index = calls.push(0) - 1;
      const session: BenchSession = {
        call: () => {
          calls[index] = (calls[index] ?? 0) + 1;
          return Promise.resolve(true);
        },
        listTools: () => Promise.resolve([]),
        client: undefined as never,
        pid: undefined,
        close: () => Promise.resolve(),
      };
      return Promise.resolve(session);
    },
  };
  return { target, calls };
}

describe('measureThroughput warm-up', () => {
  it('warms each new session of a target with its own upstream, and only those', async () => {
    const own = countingTarget('coffer-http', true);
    const shared = countingTarget('coffer-http-shared', false);
    // No measured calls (0 ms rounds): every call counted is an opening or warm-up call.
    const profile = { levels: [1, 3], rounds: 1, durationMs: 0, warmupCalls: 7 };
    await measureThroughput([own.target, shared.target], profile);
    // Five calls when a session opens, then the warm-up, once per session across levels.
    expect(own.calls).toEqual([12, 12, 12]);
    expect(shared.calls).toEqual([5, 5, 5]);
  });
});
