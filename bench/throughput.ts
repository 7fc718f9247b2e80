/**
 * Throughput: N concurrent sessions per target, each calling in a closed loop (the next call
 * when the last one answered) for a fixed time. Levels ascend; the sessions of a target are
 * kept and grown from one level to the next. Within a level the targets take turns in
 * rounds; the report shows the median calls/s across rounds and every error.
 */
import { callsEach, closedLoops } from './closed-loops.js';
import { NOTHING_SPENT, addSpent, perCall, startCpuProbe, type CpuSpent } from './cpu-spent.js';
import { relayRss } from './latency.js';
import { median } from './stats.js';
import { safeCall, type BenchSession, type Target, type TargetId } from './targets.js';

export interface ThroughputProfile {
  readonly levels: readonly number[];
  readonly rounds: number;
  readonly durationMs: number;
  /**
   * Calls each new session makes before it is measured, when it started an upstream
   * process of its own: a fresh Node upstream spends several times its warm CPU per call
   * for its first ~2,000 calls (docs/PERFORMANCE.md), where a shared upstream is warm.
   */
  readonly warmupCalls: number;
}

export interface LevelResult {
  readonly sessions: number;
  /** Median across rounds. */
  readonly callsPerSecond: number;
  readonly rounds: readonly number[];
  readonly calls: number;
  readonly errors: number;
  /** callsPerSecond / direct stdio's at the same level. */
  readonly ratioToStdio: number;
  /** The relay process's CPU per call over the level's rounds (µs; NaN without a relay). */
  readonly relayCpuUsPerCall: number;
  /** VmRSS of the relay process after the level's last round, its sessions open (MB). */
  readonly relayRssMb: number;
}

export interface TargetThroughput {
  readonly target: TargetId;
  readonly levels: LevelResult[];
  readonly failure?: string;
}

interface Pool {
  readonly target: Target;
  readonly sessions: BenchSession[];
  failure?: string;
}

export async function measureThroughput(
  targets: readonly Target[],
  profile: ThroughputProfile,
): Promise<TargetThroughput[]> {
  const pools: Pool[] = targets.map((target) => ({ target, sessions: [] }));
  const results = new Map<TargetId, LevelResult[]>(targets.map((t) => [t.id, []]));
  try {
    for (const level of profile.levels) {
      for (const pool of pools) await grow(pool, level, profile.warmupCalls);
      for (const [id, result] of await measureLevel(pools, level, profile)) {
        results.get(id)?.push(result);
      }
    }
  } finally {
    await Promise.allSettled(pools.flatMap((pool) => pool.sessions.map((s) => s.close())));
  }
  return withRatios(
    pools.map((pool) => ({
      target: pool.target.id,
      levels: results.get(pool.target.id) ?? [],
      ...(pool.failure === undefined ? {} : { failure: pool.failure }),
    })),
  );
}

/** One level: the pools take turns for `rounds` rounds. */
async function measureLevel(
  pools: readonly Pool[],
  level: number,
  profile: ThroughputProfile,
): Promise<Map<TargetId, LevelResult>> {
  const runs = new Map<TargetId, Run[]>();
  for (let round = 0; round < profile.rounds; round++) {
    for (const pool of pools.filter((p) => p.failure === undefined)) {
      const run = await runLevel(pool, level, profile.durationMs);
      runs.set(pool.target.id, [...(runs.get(pool.target.id) ?? []), run]);
    }
  }
  const results = new Map<TargetId, LevelResult>();
  for (const pool of pools) {
    const list = runs.get(pool.target.id);
    const rssMb = relayRss(pool.target.relayPid);
    if (list !== undefined) results.set(pool.target.id, levelResult(level, list, rssMb));
  }
  return results;
}

/**
 * Opens sessions (4 at a time) until the pool has `size`, each with a few calls; then,
 * for a target whose sessions start their own upstream, warms the new ones up together.
 */
async function grow(pool: Pool, size: number, warmupCalls: number): Promise<void> {
  const added = pool.sessions.length;
  while (pool.failure === undefined && pool.sessions.length < size) {
    const batch = Math.min(4, size - pool.sessions.length);
    const opened = await Promise.allSettled(
      Array.from({ length: batch }, async () => {
        const session = await pool.target.open();
        for (let i = 0; i < 5; i++) await safeCall(session);
        return session;
      }),
    );
    for (const outcome of opened) {
      if (outcome.status === 'fulfilled') pool.sessions.push(outcome.value);
      else pool.failure = `could not open session ${pool.sessions.length + 1}: ${outcome.reason}`;
    }
  }
  if (!pool.target.ownUpstream) return;
  await callsEach(pool.sessions.slice(added), warmupCalls, safeCall);
}

interface Run {
  readonly calls: number;
  readonly errors: number;
  readonly ms: number;
  /** What the relay process spent meanwhile. */
  readonly cpu: CpuSpent;
}

/** The pool's first `level` sessions in closed loops for `durationMs`. */
async function runLevel(pool: Pool, level: number, durationMs: number): Promise<Run> {
  const probe = startCpuProbe({ relay: pool.target.relayPid });
  const run = await closedLoops(pool.sessions.slice(0, level), durationMs, safeCall);
  return { ...run, cpu: probe(run.calls) };
}

function levelResult(sessions: number, runs: readonly Run[], relayRssMb: number): LevelResult {
  const rates = runs.map((run) => ((run.calls - run.errors) * 1000) / run.ms);
  const cpu = runs.reduce((sum, run) => addSpent(sum, run.cpu), NOTHING_SPENT);
  return {
    sessions,
    callsPerSecond: median(rates),
    rounds: rates,
    calls: runs.reduce((sum, run) => sum + run.calls, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    ratioToStdio: Number.NaN,
    relayCpuUsPerCall: perCall(cpu).relayUs,
    relayRssMb,
  };
}

function withRatios(results: TargetThroughput[]): TargetThroughput[] {
  const floor = results.find((r) => r.target === 'direct-stdio');
  return results.map((result) => ({
    ...result,
    levels: result.levels.map((level) => {
      const base = floor?.levels.find((l) => l.sessions === level.sessions)?.callsPerSecond;
      return { ...level, ratioToStdio: level.callsPerSecond / (base ?? Number.NaN) };
    }),
  }));
}

/**
 * The level the report compares at: `wanted` sessions when measured, else the nearest one
 * measured (a --quick run has no 16). NaN when there is no level at all.
 */
export function comparedLevel(results: readonly TargetThroughput[], wanted = 16): number {
  let best = Number.NaN;
  for (const result of results) {
    for (const { sessions } of result.levels) {
      if (!(Math.abs(sessions - wanted) >= Math.abs(best - wanted))) best = sessions;
    }
  }
  return best;
}

/** One target's result at `sessions`, when it was measured. */
export function levelOf(
  results: readonly TargetThroughput[] | undefined,
  target: TargetId,
  sessions: number,
): LevelResult | undefined {
  return results?.find((r) => r.target === target)?.levels.find((l) => l.sessions === sessions);
}
