import { describe, expect, it } from 'vitest';
import { p50RatioByRound, relativeToStdio, type TargetLatency } from '../../../bench/latency.js';
import { comparedLevel, levelOf, type TargetThroughput } from '../../../bench/throughput.js';

const at = (sessions: number[]): TargetThroughput => ({
  target: 'coffer-http',
  levels: sessions.map((n) => ({
    sessions: n,
    callsPerSecond: n * 10,
    rounds: [],
    calls: 0,
    errors: 0,
    ratioToStdio: NaN,
    relayCpuUsPerCall: NaN,
    relayRssMb: NaN,
  })),
});

describe('comparedLevel', () => {
  it('is 16 when 16 sessions were measured', () => {
    expect(comparedLevel([at([1, 8, 16, 32])])).toBe(16);
  });

  it('falls back to the nearest level measured', () => {
    expect(comparedLevel([at([1, 2])])).toBe(2);
    expect(comparedLevel([at([1, 8, 32])], 30)).toBe(32);
  });

  it('is NaN when nothing was measured', () => {
    expect(comparedLevel([])).toBeNaN();
  });
});

describe('levelOf', () => {
  it('finds one target’s result at a level, or nothing', () => {
    expect(levelOf([at([1, 16])], 'coffer-http', 16)?.callsPerSecond).toBe(160);
    expect(levelOf([at([1, 16])], 'mcp-hub', 16)).toBeUndefined();
    expect(levelOf(undefined, 'coffer-http', 16)).toBeUndefined();
  });
});

describe('latency ratios', () => {
  const rounds = (p50s: number[]) => p50s.map((p50) => ({ p50, p90: p50, p99: p50 }));

  it('takes the median of the per-round ratios', () => {
    expect(p50RatioByRound(rounds([2, 3, 10]), rounds([1, 1, 1]))).toBe(3);
  });

  it('is NaN against a target that did not run', () => {
    expect(p50RatioByRound(rounds([2, 3]), [])).toBeNaN();
  });

  it('fills in added ms and × direct stdio for every target', () => {
    const result = (target: TargetLatency['target'], p50s: number[]): TargetLatency => ({
      target,
      calls: 0,
      errors: 0,
      median: { p50: NaN, p90: NaN, p99: NaN },
      pooled: { p50: NaN, p90: NaN, p99: NaN },
      rounds: rounds(p50s),
      addedP50Ms: NaN,
      ratioP50: NaN,
      cpu: { relayUs: NaN, shimUs: NaN, clientUs: NaN },
      relayRssMb: NaN,
    });
    const [stdio, shim] = relativeToStdio([
      result('direct-stdio', [0.5, 1]),
      result('coffer-shim', [1, 3]),
    ]);
    expect(stdio).toMatchObject({ addedP50Ms: 0, ratioP50: 1 });
    expect(shim).toMatchObject({ addedP50Ms: 1.25, ratioP50: 2.5 });
  });
});
