/**
 * Throughput: N concurrent sessions per target, each calling in a closed loop (the next call
 * when the last one answered) for a fixed time. Levels ascend; the sessions of a target are
 * kept and grown from one level to the next. Within a level the targets take turns in
 * rounds; the report shows the median calls/s across rounds and every error.
 */
import { median, since } from './stats.js';
import { safeCall, type BenchSession, type Target, type TargetId } from './targets.js';

export interface ThroughputProfile {
  readonly levels: readonly number[];
  readonly rounds: number;
  readonly durationMs: number;
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
      for (const pool of pools) await grow(pool, level);
      const runs = new Map<TargetId, Run[]>();
      for (let round = 0; round < profile.rounds; round++) {
        for (const pool of pools.filter((p) => p.failure === undefined)) {
          const run = await runLevel(pool.sessions.slice(0, level), profile.durationMs);
          runs.set(pool.target.id, [...(runs.get(pool.target.id) ?? []), run]);
        }
      }
      for (const [id, list] of runs) results.get(id)?.push(levelResult(level, list));
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

/** Opens sessions (4 at a time) until the pool has `size`, each warmed with a few calls. */
async function grow(pool: Pool, size: number): Promise<void> {
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
}

interface Run {
  readonly calls: number;
  readonly errors: number;
  readonly ms: number;
}

async function runLevel(sessions: readonly BenchSession[], durationMs: number): Promise<Run> {
  const start = performance.now();
  const end = start + durationMs;
  const loops = await Promise.all(
    sessions.map(async (session) => {
      let calls = 0;
      let errors = 0;
      while (performance.now() < end) {
        if (!(await safeCall(session))) errors++;
        calls++;
      }
      return { calls, errors };
    }),
  );
  return {
    calls: loops.reduce((sum, loop) => sum + loop.calls, 0),
    errors: loops.reduce((sum, loop) => sum + loop.errors, 0),
    ms: since(start),
  };
}

function levelResult(sessions: number, runs: readonly Run[]): LevelResult {
  const rates = runs.map((run) => ((run.calls - run.errors) * 1000) / run.ms);
  return {
    sessions,
    callsPerSecond: median(rates),
    rounds: rates,
    calls: runs.reduce((sum, run) => sum + run.calls, 0),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    ratioToStdio: Number.NaN,
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
