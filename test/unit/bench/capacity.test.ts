import { describe, expect, it } from 'vitest';
import { measureCapacity, type CapacityTarget } from '../../../bench/capacity.js';
import type { TargetId } from '../../../bench/targets.js';

/** A target without processes whose sessions answer `result` or an error, as told. */
function fakeTarget(id: TargetId, succeeds: () => boolean): CapacityTarget {
  return {
    id,
    relayPid: undefined,
    tool: 'echo',
    open: () =>
      Promise.resolve({
        session: {
          request: () =>
            new Promise<Buffer>((resolve) =>
              setImmediate(() =>
                resolve(
                  Buffer.from(
                    succeeds()
                      ? '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}'
                      : '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"no"}}',
                  ),
                ),
              ),
            ),
          close: () => undefined,
        },
        stop: () => Promise.resolve(),
      }),
  };
}

describe('measureCapacity', () => {
  it('counts successful calls per second, failed calls as errors', async () => {
    let call = 0;
    const profile = { sessions: 2, rounds: 2, durationMs: 30, warmupCalls: 3 };
    const [fine, failing, half] = await measureCapacity(
      [
        fakeTarget('coffer-http', () => true),
        fakeTarget('mcp-hub', () => false),
        fakeTarget('direct-stdio', () => call++ % 2 === 0),
      ],
      profile,
      {},
    );
    expect(fine?.errors).toBe(0);
    expect(fine?.callsPerSecond).toBeGreaterThan(0);
    expect(failing?.calls).toBeGreaterThan(0);
    expect(failing?.errors).toBe(failing?.calls);
    expect(failing?.callsPerSecond).toBe(0);
    expect(half?.errors).toBeGreaterThan(0);
    expect(half?.rounds).toHaveLength(2);
    // One session alone runs too, every round, and is counted the same way.
    expect(fine?.oneSession.callsPerSecond).toBeGreaterThan(0);
    expect(failing?.oneSession.callsPerSecond).toBe(0);
    // No relay and no upstream process behind these targets: nothing to read.
    expect(fine?.relayUs).toBeNaN();
    expect(fine?.oneSession.relayUs).toBeNaN();
  });
});
