/**
 * Sessions each calling in a closed loop (the next call when the last one answered) until
 * `durationMs` has passed: how the throughput and capacity sections load a target.
 */
import { since } from './stats.js';

export interface LoopsRun {
  readonly calls: number;
  /** Calls that failed (counted in `calls` too). */
  readonly errors: number;
  readonly ms: number;
}

/** `call` resolves true when the call succeeded; it must not reject. */
export async function closedLoops<S>(
  sessions: readonly S[],
  durationMs: number,
  call: (session: S) => Promise<boolean>,
): Promise<LoopsRun> {
  const start = performance.now();
  const end = start + durationMs;
  const loops = await Promise.all(
    sessions.map(async (session) => {
      let calls = 0;
      let errors = 0;
      for (; performance.now() < end; calls++) if (!(await call(session))) errors++;
      return { calls, errors };
    }),
  );
  return {
    calls: loops.reduce((sum, loop) => sum + loop.calls, 0),
    errors: loops.reduce((sum, loop) => sum + loop.errors, 0),
    ms: since(start),
  };
}

/** `count` calls from each session, the sessions at once (a warm-up); failures ignored. */
export async function callsEach<S>(
  sessions: readonly S[],
  count: number,
  call: (session: S) => Promise<boolean>,
): Promise<void> {
  await Promise.all(
    sessions.map(async (session) => {
      for (let i = 0; i < count; i++) await call(session);
    }),
  );
}
