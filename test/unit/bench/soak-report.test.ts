import { describe, expect, it } from 'vitest';
import {
  judgePlateau,
  renderSoak,
  type SoakResults,
  type SoakRow,
} from '../../../bench/soak-report.js';

/** One sample every 10 s for `seconds`, RSS from `rssAt(t)`. */
function samples(seconds: number, rssAt: (t: number) => number): SoakRow[] {
  return Array.from({ length: seconds / 10 }, (_, index) => {
    const t = (index + 1) * 10;
    return { t, rssMb: rssAt(t), calls: t * 100, callsPerS: 100, p99Ms: 1, errors: 0, load1: 1 };
  });
}

function results(rows: SoakRow[]): SoakResults {
  const plateau = judgePlateau(rows);
  return {
    command: 'npm run soak',
    startedAt: '2026-12-06T00:00:00.000Z',
    machine: {
      nproc: 2,
      cpuModel: 'test',
      memoryGb: 4,
      node: 'v20',
      platform: 'linux',
      loadAtStart: [1, 1, 1],
    },
    minutes: rows.length / 6,
    sessions: 4,
    churnSeconds: 10,
    calls: 1000,
    errors: 0,
    errorSamples: [],
    sessionsOpened: 4,
    latency: { p50: 1, p90: 2, p99: 3 },
    idleRssMb: 70,
    rows,
    samples: rows,
    ...(plateau === undefined ? {} : { plateau }),
    leftoverUpstreams: 0,
  };
}

describe('judgePlateau', () => {
  it('calls a flat floor a plateau and a rising one not', () => {
    // A GC sawtooth over a flat floor: the floor of each 30 s window stays at 100 MB.
    const flat = judgePlateau(samples(600, (t) => 100 + ((t / 10) % 3) * 20));
    expect(flat?.plateaued).toBe(true);
    const leak = judgePlateau(samples(600, (t) => 100 + t / 10));
    expect(leak?.plateaued).toBe(false);
    expect(leak?.floorSecondHalfSlopeMbPerMin).toBeCloseTo(6, 0);
  });

  it('gives no verdict when the second half has fewer than two floors', () => {
    const short = judgePlateau(samples(50, (t) => 100 + t));
    expect(short).toBeDefined();
    expect(short?.plateaued).toBeUndefined();
    expect(short?.floorSecondHalfSlopeMbPerMin).toBeNaN();
  });
});

describe('renderSoak', () => {
  it('says a short run is too short to judge, with no NaN in the text', () => {
    const text = renderSoak(results(samples(50, (t) => 100 + t)));
    expect(text).toContain('Too short to judge');
    expect(text).not.toContain('NaN');
    expect(text).not.toContain('**Plateau**');
  });

  it('prints the verdict of a long run', () => {
    const text = renderSoak(results(samples(600, () => 100)));
    expect(text).toContain('**Plateau** (floor growth under 1 MB/min)');
    expect(text).not.toContain('NaN');
  });
});
