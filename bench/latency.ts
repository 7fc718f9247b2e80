/**
 * tools/call latency: per target one session, warmed up, then sequential calls in rounds
 * (A B C D A B C D …) so that machine noise hits every target alike. Percentiles are taken
 * per round; the report shows their median across rounds.
 */
import { median, medianPercentiles, percentiles, since, type Percentiles } from './stats.js';
import type { BenchSession, Target, TargetId } from './targets.js';

export interface LatencyProfile {
  readonly rounds: number;
  readonly callsPerRound: number;
  /** Calls before the first round (JIT, connections, caches). */
  readonly warmup: number;
  /** Calls at the start of every round, not measured. */
  readonly roundWarmup: number;
}

export interface TargetLatency {
  readonly target: TargetId;
  readonly calls: number;
  readonly errors: number;
  /** Median across rounds of each round's percentile, in ms. */
  readonly median: Percentiles;
  /** Percentiles over all calls pooled. */
  readonly pooled: Percentiles;
  readonly rounds: readonly Percentiles[];
  /** Median across rounds of (this p50 − direct stdio p50) and of the ratio. */
  readonly addedP50Ms: number;
  readonly ratioP50: number;
  readonly failure?: string;
}

export async function measureLatency(
  targets: readonly Target[],
  profile: LatencyProfile,
): Promise<TargetLatency[]> {
  const sessions = new Map<TargetId, BenchSession>();
  const failures = new Map<TargetId, string>();
  try {
    for (const target of targets) {
      try {
        const session = await target.open();
        sessions.set(target.id, session);
        await timedCalls(session, profile.warmup);
      } catch (error) {
        failures.set(target.id, String(error));
      }
    }
    const samples = new Map<TargetId, number[][]>(targets.map((t) => [t.id, []]));
    const errors = new Map<TargetId, number>(targets.map((t) => [t.id, 0]));
    for (let round = 0; round < profile.rounds; round++) {
      for (const [id, session] of sessions) {
        await timedCalls(session, profile.roundWarmup);
        const result = await timedCalls(session, profile.callsPerRound);
        samples.get(id)?.push(result.times);
        errors.set(id, (errors.get(id) ?? 0) + result.errors);
      }
    }
    return targets.map((t) =>
      summarise(t.id, samples.get(t.id) ?? [], errors.get(t.id) ?? 0, failures.get(t.id)),
    );
  } finally {
    await Promise.allSettled([...sessions.values()].map((session) => session.close()));
  }
}

async function timedCalls(session: BenchSession, count: number) {
  const times: number[] = [];
  let errors = 0;
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const ok = await session.call().catch(() => false);
    times.push(since(start));
    if (!ok) errors++;
  }
  return { times, errors };
}

function summarise(
  target: TargetId,
  rounds: readonly number[][],
  errors: number,
  failure: string | undefined,
): TargetLatency {
  const perRound = rounds.map((times) => percentiles(times));
  return {
    target,
    calls: rounds.reduce((sum, times) => sum + times.length, 0),
    errors,
    median: medianPercentiles(perRound),
    pooled: percentiles(rounds.flat()),
    rounds: perRound,
    addedP50Ms: Number.NaN,
    ratioP50: Number.NaN,
    ...(failure === undefined ? {} : { failure }),
  };
}

/** Fills in the added latency over direct stdio, round by round. */
export function relativeToStdio(results: readonly TargetLatency[]): TargetLatency[] {
  const floor = results.find((r) => r.target === 'direct-stdio');
  return results.map((result) => {
    const pairs = result.rounds.map((round, i) => [round.p50, floor?.rounds[i]?.p50 ?? NaN]);
    const added = pairs.map(([own = NaN, base = NaN]) => own - base);
    const ratio = pairs.map(([own = NaN, base = NaN]) => own / base);
    return { ...result, addedP50Ms: median(added), ratioP50: median(ratio) };
  });
}
