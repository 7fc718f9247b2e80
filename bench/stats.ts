/** Small statistics helpers: percentiles of samples, medians across rounds. */

export interface Percentiles {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

/** Nearest-rank percentile of unsorted samples (q in 0..100); NaN when there are none. */
export function percentile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((q / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] ?? Number.NaN;
}

export function percentiles(samples: readonly number[]): Percentiles {
  return {
    p50: percentile(samples, 50),
    p90: percentile(samples, 90),
    p99: percentile(samples, 99),
  };
}

export function median(values: readonly number[]): number {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return Number.NaN;
  const sorted = [...finite].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The median of each percentile across rounds. */
export function medianPercentiles(rounds: readonly Percentiles[]): Percentiles {
  return {
    p50: median(rounds.map((round) => round.p50)),
    p90: median(rounds.map((round) => round.p90)),
    p99: median(rounds.map((round) => round.p99)),
  };
}

/** Milliseconds since `start` (a performance.now() value). */
export function since(start: number): number {
  return performance.now() - start;
}

/** Rounds for the JSON output: 3 decimals are plenty for milliseconds. */
export function round3(value: number): number {
  return Number.isFinite(value) ? Math.round(value * 1000) / 1000 : value;
}
