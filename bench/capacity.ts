/**
 * Relay capacity: calls/s at N sessions driven by a raw load generator (raw-sessions.ts,
 * raw-sse-session.ts: nothing parsed per call) instead of the SDK client. The throughput
 * section's SDK client spends ~0.4 ms of CPU per call in the bench's one thread, which
 * saturates first and sets the pace for every relay alike (docs/PERFORMANCE.md, "What
 * sets calls/s"); here the bench spends ~0.06-0.1 ms, so what is measured is the relay and
 * the upstream processes behind it. The CPU each spent per call is read beside it.
 */
import { callsEach, closedLoops, type LoopsRun } from './closed-loops.js';
import { NOTHING_SPENT, addSpent, perCall, startCpuProbe, type CpuSpent } from './cpu-spent.js';
import { descendants } from './processes.js';
import { rawHttpSession, rawStdioSession, type RawSession } from './raw-sessions.js';
import { rawSseSession } from './raw-sse-session.js';
import { median } from './stats.js';
import { sharedServerName, type TargetId, type TargetSetup } from './targets.js';

export interface CapacityProfile {
  readonly sessions: number;
  readonly rounds: number;
  readonly durationMs: number;
  /**
   * Calls each session makes before the rounds, all sessions at once. A fresh Node
   * upstream spends 3-7x its warm CPU per call for its first ~2,000 calls while V8
   * optimises it (docs/PERFORMANCE.md), and a per-session layout starts 16 of them
   * where a shared one keeps one warm process: the latency section warms up for the
   * same reason.
   */
  readonly warmupCalls: number;
}

export interface CapacityResult {
  readonly target: TargetId;
  readonly sessions: number;
  /** Median across rounds. */
  readonly callsPerSecond: number;
  readonly rounds: readonly number[];
  readonly calls: number;
  readonly errors: number;
  /** Microseconds of CPU per call: the relay, its upstream processes (summed), the bench. */
  readonly relayUs: number;
  readonly upstreamUs: number;
  readonly clientUs: number;
  /**
   * One of the sessions alone, in a closed loop for as long: the relay's CPU per call when
   * each call finds it idle, paced by a client that parses nothing. Beside the latency
   * section's figure, paced by an SDK client: a slower client's calls cost the same relay
   * more (docs/PERFORMANCE.md, "What a client's pace costs the daemon").
   */
  readonly oneSession: { readonly callsPerSecond: number; readonly relayUs: number };
  readonly failure?: string;
}

export interface CapacityTarget {
  readonly id: TargetId;
  readonly relayPid: number | undefined;
  readonly tool: string;
  open(): Promise<{ session: RawSession; stop(): Promise<void>; pid?: number }>;
}

/** Direct stdio, Coffer /mcp (one upstream per session, and shared) and mcp-hub if present. */
export function capacityTargets(setup: TargetSetup): CapacityTarget[] {
  const { upstream, httpDaemon: daemon, hub } = setup;
  const http = async () => {
    const session = await rawHttpSession(daemon.url, daemon.token);
    return { session, stop: () => Promise.resolve(session.close()) };
  };
  const routed = `${upstream.name}__${upstream.tool}`;
  const targets: CapacityTarget[] = [
    {
      id: 'direct-stdio',
      relayPid: undefined,
      tool: upstream.tool,
      open: async () => {
        const session = await rawStdioSession(upstream.command, upstream.args);
        return { session, stop: () => session.stop(), pid: session.pid };
      },
    },
    { id: 'coffer-http', relayPid: daemon.pid, tool: routed, open: http },
    {
      id: 'coffer-http-shared',
      relayPid: daemon.pid,
      tool: `${sharedServerName(upstream.name)}__${upstream.tool}`,
      open: http,
    },
  ];
  if (hub !== undefined) {
    const open = async () => {
      const session = await rawSseSession(hub.url);
      return { session, stop: () => Promise.resolve(session.close()) };
    };
    targets.push({ id: 'mcp-hub', relayPid: hub.pid, tool: routed, open });
  }
  return targets;
}

interface Pool {
  readonly target: CapacityTarget;
  readonly opened: Awaited<ReturnType<CapacityTarget['open']>>[];
  readonly runs: Run[];
  /** Runs of the first session alone. */
  readonly alone: Run[];
  failure?: string;
}

interface Run extends LoopsRun {
  /** The relay's, its upstream processes' and the load generator's CPU meanwhile. */
  readonly cpu: CpuSpent;
}

/** Every target's sessions opened, then rounds in which the targets take turns. */
export async function measureCapacity(
  targets: readonly CapacityTarget[],
  profile: CapacityProfile,
  args: Readonly<Record<string, unknown>>,
): Promise<CapacityResult[]> {
  const pools: Pool[] = targets.map((target) => ({ target, opened: [], runs: [], alone: [] }));
  try {
    for (const pool of pools) await open(pool, profile.sessions, args);
    for (const pool of pools.filter((p) => p.failure === undefined))
      await callsEach(sessionsOf(pool), profile.warmupCalls, safeCallOf(pool, args));
    for (let round = 0; round < profile.rounds; round++) {
      for (const pool of pools.filter((p) => p.failure === undefined)) {
        pool.alone.push(await run(pool, profile.durationMs, args, 1));
        pool.runs.push(await run(pool, profile.durationMs, args));
      }
    }
  } finally {
    await Promise.allSettled(pools.flatMap((pool) => pool.opened.map((o) => o.stop())));
  }
  return pools.map((pool) => result(pool, profile.sessions));
}

async function open(
  pool: Pool,
  size: number,
  args: Readonly<Record<string, unknown>>,
): Promise<void> {
  try {
    while (pool.opened.length < size) {
      const opened = await pool.target.open();
      pool.opened.push(opened);
      // A few calls each: the upstream a session gets is started by its first call.
      for (let i = 0; i < 20; i++) await call(opened.session, pool.target.tool, args);
    }
  } catch (error) {
    pool.failure = `could not open session ${pool.opened.length + 1}: ${String(error)}`;
  }
}

async function call(session: RawSession, tool: string, args: Readonly<Record<string, unknown>>) {
  const answer = await session.request('tools/call', { name: tool, arguments: args });
  return answer.includes('"result"') && !answer.includes('"isError":true');
}

const sessionsOf = (pool: Pool): RawSession[] => pool.opened.map((opened) => opened.session);

/** The target's call, a failure (an error answer, a lost session) counted as false. */
function safeCallOf(pool: Pool, args: Readonly<Record<string, unknown>>) {
  return (session: RawSession) => call(session, pool.target.tool, args).catch(() => false);
}

/** The first `sessions` sessions in closed loops for `durationMs`, CPU read before and after. */
async function run(
  pool: Pool,
  durationMs: number,
  args: Readonly<Record<string, unknown>>,
  sessions = pool.opened.length,
): Promise<Run> {
  const probe = startCpuProbe({ relay: pool.target.relayPid, upstreams: upstreamPids(pool) });
  const looping = sessionsOf(pool).slice(0, sessions);
  const loops = await closedLoops(looping, durationMs, safeCallOf(pool, args));
  return { ...loops, cpu: probe(loops.calls) };
}

/** The upstream processes behind a target: the relay's children, or direct stdio's own. */
function upstreamPids(pool: Pool): number[] {
  const { relayPid } = pool.target;
  if (relayPid !== undefined) return descendants(relayPid);
  return pool.opened.flatMap((opened) => (opened.pid === undefined ? [] : [opened.pid]));
}

function result(pool: Pool, sessions: number): CapacityResult {
  const { cpu, rounds, callsPerSecond } = summary(pool.runs);
  const { relayUs, clientUs } = perCall(cpu);
  const alone = summary(pool.alone);
  return {
    target: pool.target.id,
    sessions,
    callsPerSecond,
    rounds,
    calls: cpu.calls,
    errors: pool.runs.reduce((sum, run) => sum + run.errors, 0),
    relayUs,
    upstreamUs: cpu.upstreamUs / cpu.calls,
    clientUs,
    oneSession: { callsPerSecond: alone.callsPerSecond, relayUs: perCall(alone.cpu).relayUs },
    ...(pool.failure === undefined ? {} : { failure: pool.failure }),
  };
}

/** CPU summed over the runs, and successful calls/s per run (as the throughput section counts them). */
function summary(runs: readonly Run[]) {
  const cpu = runs.reduce((sum, run) => addSpent(sum, run.cpu), NOTHING_SPENT);
  const rounds = runs.map((run) => ((run.calls - run.errors) * 1000) / run.ms);
  return { cpu, rounds, callsPerSecond: rounds.length > 0 ? median(rounds) : Number.NaN };
}
