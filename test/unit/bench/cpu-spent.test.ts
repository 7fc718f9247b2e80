import { describe, expect, it } from 'vitest';
import { NOTHING_SPENT, addSpent, perCall, startCpuProbe } from '../../../bench/cpu-spent.js';

/** A fake /proc: the CPU (µs) each pid has used so far; a missing pid is a gone process. */
function fakeProc(start: Record<number, number>) {
  const used = new Map(Object.entries(start).map(([pid, us]) => [Number(pid), us]));
  return {
    spend: (pid: number, us: number) => used.set(pid, (used.get(pid) ?? 0) + us),
    exit: (pid: number) => used.delete(pid),
    read: (pid: number) => {
      const us = used.get(pid);
      if (us === undefined) throw new Error(`ENOENT /proc/${pid}/stat`);
      return us;
    },
  };
}

describe('startCpuProbe', () => {
  it('reports what the relay and the shim spent between start and stop', () => {
    const proc = fakeProc({ 10: 5_000, 20: 700 });
    const stop = startCpuProbe({ relay: 10, shim: 20 }, proc.read);
    proc.spend(10, 30_000);
    proc.spend(20, 12_000);
    const spent = stop(100);
    expect(spent).toMatchObject({ calls: 100, relayUs: 30_000, shimUs: 12_000 });
    expect(spent.clientUs).toBeGreaterThanOrEqual(0);
  });

  it('gives NaN for a process the target does not have', () => {
    const proc = fakeProc({ 10: 0 });
    const spent = startCpuProbe({ relay: 10 }, proc.read)(5);
    expect(spent.relayUs).toBe(0);
    expect(spent.shimUs).toBeNaN();
  });

  it("sums the upstreams' CPU, one gone meanwhile adding nothing, NaN when none were asked for", () => {
    const proc = fakeProc({ 10: 0, 31: 1_000, 32: 2_000, 33: 50 });
    const stop = startCpuProbe({ relay: 10, upstreams: [31, 32, 33] }, proc.read);
    proc.spend(31, 400);
    proc.spend(32, 600);
    proc.exit(33);
    expect(stop(10).upstreamUs).toBe(1_000);
    expect(startCpuProbe({ relay: 10 }, proc.read)(10).upstreamUs).toBeNaN();
  });

  it('gives NaN, not a throw, when the relay exits during the batch', () => {
    const proc = fakeProc({ 10: 100 });
    const stop = startCpuProbe({ relay: 10 }, proc.read);
    proc.exit(10);
    expect(stop(5).relayUs).toBeNaN();
  });
});

describe('perCall', () => {
  it('divides the sums of several batches by all their calls', () => {
    const a = { calls: 100, relayUs: 20_000, shimUs: Number.NaN, clientUs: 5_000, upstreamUs: 0 };
    const b = { calls: 300, relayUs: 60_000, shimUs: Number.NaN, clientUs: 15_000, upstreamUs: 0 };
    const total = addSpent(addSpent(NOTHING_SPENT, a), b);
    expect(perCall(total)).toEqual({ relayUs: 200, shimUs: Number.NaN, clientUs: 50 });
  });

  it('is NaN without calls rather than Infinity', () => {
    expect(perCall(NOTHING_SPENT).relayUs).toBeNaN();
  });
});
