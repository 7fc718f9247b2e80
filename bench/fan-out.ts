/**
 * tools/list over many upstreams (20 fixture servers × exactly 50 tools): cold (the first
 * list of a new session, which starts every upstream), warm (the session's cached list),
 * and cold with one upstream slow to start. Each cold figure is set beside the same
 * upstreams started directly by the bench in the same round: the slowest of them is what
 * an aggregated list cannot beat. The warm figure is set beside three of its own: the same
 * listing read by a raw HTTP client (the gateway's time, no parse), the `JSON.parse` of
 * that answer alone (what any client that reads the list pays on this machine, whatever
 * serves it), and ONE server of all those tools listed directly by the same SDK client
 * (what the client needs for a list that size, with no gateway at all).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startDaemon, type BenchDaemon, type StdioServer } from './daemon.js';
import { startCpuProbe } from './cpu-spent.js';
import { descendants } from './processes.js';
import { rawHttpSession } from './raw-sessions.js';
import { measureSearch, type SearchResult } from './search.js';
import { median, percentiles, since, type Percentiles } from './stats.js';
import { cofferHttpTransport, openSession, stdioTransport, type BenchSession } from './targets.js';
import { FIXTURE, fanOutServer } from './upstreams.js';

export interface FanOutProfile {
  readonly servers: number;
  readonly toolsPerServer: number;
  readonly coldReps: number;
  readonly warmCalls: number;
  readonly slowInitMs: number;
  readonly searchQueries: number;
}

export interface ColdResult {
  /** Median over reps: a new Coffer session, initialize + first tools/list (ms). */
  readonly cofferMs: number;
  /** Median over reps: the slowest upstream started directly, spawn → tools/list (ms). */
  readonly directSlowestMs: number;
  readonly addedMs: number;
  readonly reps: readonly { readonly cofferMs: number; readonly directSlowestMs: number }[];
}

export interface WarmBeside {
  /** The same warm listing by a raw HTTP client: until its last byte, nothing parsed. */
  readonly raw: Percentiles;
  /**
   * Decoding and `JSON.parse` of that raw answer's bytes, nothing else: the floor of any
   * client that reads the list (absent in results before 2026-12-05, 21:00 UTC).
   */
  readonly parse?: Percentiles;
  /** One stdio server serving every tool of the fan-out, listed warm by the SDK client. */
  readonly direct: Percentiles;
  readonly directTools: number;
}

export interface FanOutResult {
  readonly servers: number;
  readonly toolsPerServer: number;
  readonly slowInitMs: number;
  readonly tools: number;
  readonly warm: Percentiles;
  /**
   * CPU per warm listing (ms): the daemon's, and the bench client's (JSON parse and the
   * SDK's schema checks of 1,341 tools), which the round trip above includes.
   */
  readonly warmCpu?: { readonly daemonMs: number; readonly clientMs: number };
  /** Beside `warm`, in turn in the same rounds (absent in results before 2026-12-05). */
  readonly warmBeside?: WarmBeside;
  readonly cold: ColdResult;
  readonly coldSlow: ColdResult;
  readonly search: SearchResult;
}

export async function measureFanOut(
  profile: FanOutProfile,
  cpuProfDir: string | undefined,
): Promise<FanOutResult> {
  const servers = Array.from({ length: profile.servers }, (_, i) =>
    fanOutServer(i + 1, profile.toolsPerServer),
  );
  const normal = await withDaemon(servers, cpuProfDir, async (daemon) => {
    const cold = await coldRounds(daemon, servers, profile.coldReps);
    const session = await openSession(cofferHttpTransport(daemon), '');
    try {
      const names = await session.listTools();
      const { warm, warmCpu } = await warmLists(session, profile.warmCalls, daemon.pid);
      const warmBeside = await warmBesides(daemon, profile);
      const search = await measureSearch(session, names, profile.searchQueries);
      return { cold, tools: names.length, warm, warmCpu, warmBeside, search };
    } finally {
      await session.close();
    }
  });
  const slowServers = [
    ...servers.slice(0, -1),
    fanOutServer(profile.servers, profile.toolsPerServer, profile.slowInitMs),
  ];
  const coldSlow = await withDaemon(slowServers, cpuProfDir, (daemon) =>
    coldRounds(daemon, slowServers, profile.coldReps),
  );
  const { servers: count, toolsPerServer, slowInitMs } = profile;
  return { servers: count, toolsPerServer, slowInitMs, ...normal, coldSlow };
}

async function withDaemon<T>(
  servers: readonly StdioServer[],
  cpuProfDir: string | undefined,
  work: (daemon: BenchDaemon) => Promise<T>,
): Promise<T> {
  const daemon = await startDaemon({ cpuProfDir });
  try {
    for (const server of servers) await daemon.addServer(server);
    return await work(daemon);
  } finally {
    await daemon.stop();
  }
}

/** Direct and Coffer in turn, each rep starting from no upstream process at all. */
async function coldRounds(
  daemon: BenchDaemon,
  servers: readonly StdioServer[],
  reps: number,
): Promise<ColdResult> {
  const results: { cofferMs: number; directSlowestMs: number }[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const directSlowestMs = await directFanOut(servers);
    await upstreamsGone(daemon);
    const cofferMs = await cofferColdList(daemon, servers.length);
    await upstreamsGone(daemon);
    results.push({ cofferMs, directSlowestMs });
  }
  const cofferMs = median(results.map((r) => r.cofferMs));
  const directSlowestMs = median(results.map((r) => r.directSlowestMs));
  return { cofferMs, directSlowestMs, addedMs: cofferMs - directSlowestMs, reps: results };
}

/** Every upstream spawned by the bench at once; resolves with the slowest spawn → list. */
async function directFanOut(servers: readonly StdioServer[]): Promise<number> {
  const sessions: BenchSession[] = [];
  try {
    const times = await Promise.all(
      servers.map(async (server) => {
        const start = performance.now();
        const session = await openSession(stdioTransport(server.command, server.args), '');
        sessions.push(session);
        await session.listTools();
        return since(start);
      }),
    );
    return Math.max(...times);
  } finally {
    await Promise.allSettled(sessions.map((session) => session.close()));
  }
}

async function cofferColdList(daemon: BenchDaemon, servers: number): Promise<number> {
  const start = performance.now();
  const session = await openSession(cofferHttpTransport(daemon), '');
  try {
    const tools = (await session.listTools()).length;
    const elapsed = since(start);
    if (tools < servers) throw new Error(`cold tools/list returned only ${tools} tools`);
    return elapsed;
  } finally {
    await session.close();
  }
}

async function warmLists(session: BenchSession, count: number, daemonPid: number) {
  const times: number[] = [];
  const spent = startCpuProbe({ relay: daemonPid });
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await session.listTools();
    times.push(since(start));
  }
  const { relayUs, clientUs } = spent(count);
  const warmCpu = { daemonMs: relayUs / count / 1000, clientMs: clientUs / count / 1000 };
  return { warm: percentiles(times), warmCpu };
}

/** Raw listings of the same daemon and direct listings of one server of every tool, in turn. */
async function warmBesides(daemon: BenchDaemon, profile: FanOutProfile): Promise<WarmBeside> {
  const count = profile.servers * profile.toolsPerServer;
  const args = [FIXTURE, '--tool-count', String(count), '--generated-only'];
  const direct = await openSession(stdioTransport(process.execPath, args), '');
  const raw = await rawHttpSession(daemon.url, daemon.token);
  try {
    const directTools = (await direct.listTools()).length;
    for (let i = 0; i < Math.min(10, profile.warmCalls); i++) {
      await raw.request('tools/list', {});
      await direct.listTools();
    }
    const times = { raw: [] as number[], parse: [] as number[], direct: [] as number[] };
    for (let i = 0; i < profile.warmCalls; i++) {
      let start = performance.now();
      const answer = await raw.request('tools/list', {});
      times.raw.push(since(start));
      times.parse.push(parseTime(answer));
      start = performance.now();
      await direct.listTools();
      times.direct.push(since(start));
    }
    const { raw: read, parse, direct: listed } = times;
    return {
      raw: percentiles(read),
      parse: percentiles(parse),
      direct: percentiles(listed),
      directTools,
    };
  } finally {
    raw.close();
    await direct.close();
  }
}

/** Milliseconds to decode and parse one answer; throws if it is not a list of tools. */
export function parseTime(answer: Buffer): number {
  const start = performance.now();
  const message = JSON.parse(answer.toString()) as { result?: { tools?: unknown } };
  const took = since(start);
  if (!Array.isArray(message.result?.tools))
    throw new Error(`tools/list answered without tools: ${answer.toString('utf8', 0, 300)}`);
  return took;
}

/** Waits (up to 10 s) until the daemon's upstream processes of closed sessions are gone. */
async function upstreamsGone(daemon: BenchDaemon): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (descendants(daemon.pid).length > 0 && Date.now() < deadline) await sleep(50);
}
