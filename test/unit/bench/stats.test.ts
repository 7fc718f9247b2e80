import { describe, expect, it } from 'vitest';
import { median, medianPercentiles, percentile, percentiles } from '../../../bench/stats.js';

describe('percentile', () => {
  const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6]; // 1..10, unsorted

  it('takes the nearest rank of the sorted samples', () => {
    expect(percentile(samples, 50)).toBe(5);
    expect(percentile(samples, 90)).toBe(9);
    expect(percentile(samples, 99)).toBe(10);
    expect(percentile(samples, 0)).toBe(1);
  });

  it('does not reorder the caller’s array', () => {
    const copy = [...samples];
    percentiles(samples);
    expect(samples).toEqual(copy);
  });

  it('is NaN without samples', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('leaves out NaN (a round that did not run)', () => {
    expect(median([Number.NaN, 1, 3])).toBe(2);
    expect(median([Number.NaN])).toBeNaN();
  });
});

describe('medianPercentiles', () => {
  it('takes each percentile’s median across rounds separately', () => {
    const rounds = [
      { p50: 1, p90: 9, p99: 30 },
      { p50: 3, p90: 5, p99: 10 },
      { p50: 2, p90: 7, p99: 20 },
    ];
    expect(medianPercentiles(rounds)).toEqual({ p50: 2, p90: 7, p99: 20 });
  });
});
