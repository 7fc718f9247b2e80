/**
 * tools/call latency: per target one session, warmed up, then sequential calls in rounds
 * (A B C D A B C D …) so that machine noise hits every target alike. Percentiles are taken
 * per round; the report shows their median across rounds.
 */
import {
  NOTHING_SPENT,
  addSpent,
  perCall,
  startCpuProbe,
  type CpuPerCall,
  type CpuSpent,
} from './cpu-spent.js';
import { rssKb } from './proc-readings.js';
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
  /** CPU per call by process over every measured round (µs; NaN where there is none). */
  readonly cpu: CpuPerCall;
  /** VmRSS of the relay process after the last round, one session open (MB). */
  readonly relayRssMb: number;
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
    const tallies = await runRounds(targets, sessions, profile);
    return targets.map((t) => summarise(t, tallies.get(t.id) ?? newTally(), failures));
  } finally {
    await Promise.allSettled([...sessions.values()].map((session) => session.close()));
  }
}

/** Rounds A B C D A B C D …, the relay's (and shim's) CPU read around each target's turn. */
async function runRounds(
  targets: readonly Target[],
  sessions: ReadonlyMap<TargetId, BenchSession>,
  profile: LatencyProfile,
): Promise<Map<TargetId, Tally>> {
  const tallies = new Map<TargetId, Tally>(targets.map((t) => [t.id, newTally()]));
  for (let round = 0; round < profile.rounds; round++) {
    for (const target of targets) {
      const session = sessions.get(target.id);
      const tally = tallies.get(target.id);
      if (session === undefined || tally === undefined) continue;
      await timedCalls(session, profile.roundWarmup);
      const shim = target.shimmed ? session.pid : undefined;
      const probe = startCpuProbe({ relay: target.relayPid, shim });
      const result = await timedCalls(session, profile.callsPerRound);
      tally.cpu = addSpent(tally.cpu, probe(result.times.length));
      tally.rounds.push(result.times);
      tally.errors += result.errors;
    }
  }
  return tallies;
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

interface Tally {
  readonly rounds: number[][];
  errors: number;
  cpu: CpuSpent;
}

const newTally = (): Tally => ({ rounds: [], errors: 0, cpu: NOTHING_SPENT });

function summarise(
  target: Target,
  tally: Tally,
  failures: ReadonlyMap<TargetId, string>,
): TargetLatency {
  const perRound = tally.rounds.map((times) => percentiles(times));
  const failure = failures.get(target.id);
  return {
    target: target.id,
    calls: tally.rounds.reduce((sum, times) => sum + times.length, 0),
    errors: tally.errors,
    median: medianPercentiles(perRound),
    pooled: percentiles(tally.rounds.flat()),
    rounds: perRound,
    addedP50Ms: Number.NaN,
    ratioP50: Number.NaN,
    cpu: perCall(tally.cpu),
    relayRssMb: relayRss(target.relayPid),
    ...(failure === undefined ? {} : { failure }),
  };
}

/** VmRSS of a relay process in MB; NaN without one (or once it is gone). */
export function relayRss(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    return rssKb(pid) / 1024;
  } catch {
    return Number.NaN;
  }
}

/**
 * The median across rounds of (this p50 / the other's p50) in the same round: both saw the
 * same machine in each round. NaN when either did not run.
 */
export function p50RatioByRound(
  own: readonly Percentiles[],
  other: readonly Percentiles[],
): number {
  return median(own.map((round, i) => round.p50 / (other[i]?.p50 ?? Number.NaN)));
}

/** Fills in the added latency over direct stdio, round by round. */
export function relativeToStdio(results: readonly TargetLatency[]): TargetLatency[] {
  const floor = results.find((r) => r.target === 'direct-stdio')?.rounds ?? [];
  return results.map((result) => {
    const added = result.rounds.map((round, i) => round.p50 - (floor[i]?.p50 ?? NaN));
    return {
      ...result,
      addedP50Ms: median(added),
      ratioP50: p50RatioByRound(result.rounds, floor),
    };
  });
}
