/**
 * The daemon's CPU and the round trip per relayed `tools/call` (the fixture's `echo`), for
 * several builds side by side: on the shim's socket channel (`socket`), through the build's
 * own `coffer shim` (`shim`, whose CPU is reported too), through /mcp in a session (`mcp`)
 * and through /mcp as 2026-07-28 requests without one (`modern`), each with a raw client (a socket, stdio lines, node:http; nothing parsed per call), so the
 * daemon's share is not drowned by an SDK client's. After a warm-up, rounds of calls
 * are taken in turn over every build and channel, who goes first swapped each round; the
 * daemon's CPU is read from /proc around each round. Medians of the rounds.
 *
 *   node dist/bench/call-cost.js [--rounds 8] [--calls 3000] [other-repo-root …]
 *
 * Other roots are built clones of this repository (e.g. the commit before a change).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot, startDaemon, type BenchDaemon } from './daemon.js';
import { cpuMicros } from './proc-readings.js';
import {
  rawHttpSession,
  rawModernHttp,
  rawShimSession,
  rawSocketSession,
  type RawSession,
} from './raw-sessions.js';
import { median } from './stats.js';
import { fixtureUpstream } from './upstreams.js';

const CHANNELS = ['socket', 'shim', 'mcp', 'modern'] as const;
type Channel = (typeof CHANNELS)[number];
const WARMUP = 3_000;

interface Build {
  readonly root: string;
  readonly daemon: BenchDaemon;
  readonly sessions: Record<Channel, RawSession>;
  readonly shimPid: number;
  readonly cpuUs: Record<Channel, number[]>;
  readonly wallUs: Record<Channel, number[]>;
  readonly shimCpuUs: number[];
}

async function open(root: string): Promise<Build> {
  const daemon = await startDaemon({ bin: join(root, 'bin/coffer.js') });
  try {
    const { name, command, args } = fixtureUpstream;
    await daemon.addServer({ name, command, args });
    const info = JSON.parse(readFileSync(join(daemon.home, 'daemon.json'), 'utf8')) as {
      socket?: string;
    };
    if (info.socket === undefined) throw new Error(`${root}: the daemon has no socket channel`);
    const shim = await rawShimSession(join(root, 'bin/coffer.js'), daemon.env);
    const sessions = {
      socket: await rawSocketSession(info.socket, daemon.token),
      shim,
      mcp: await rawHttpSession(daemon.url, daemon.token),
      modern: rawModernHttp(daemon.url, daemon.token),
    };
    return {
      root,
      daemon,
      sessions,
      shimPid: shim.pid,
      cpuUs: { socket: [], shim: [], mcp: [], modern: [] },
      wallUs: { socket: [], shim: [], mcp: [], modern: [] },
      shimCpuUs: [],
    };
  } catch (error) {
    await daemon.stop();
    throw error;
  }
}

async function calls(session: RawSession, count: number): Promise<void> {
  const params = {
    name: `${fixtureUpstream.name}__${fixtureUpstream.tool}`,
    arguments: fixtureUpstream.arguments,
  };
  for (let i = 0; i < count; i++) {
    const answer = (await session.request('tools/call', params)).toString();
    if (!answer.includes('"result"')) throw new Error(`the call failed: ${answer.slice(0, 300)}`);
  }
}

async function round(build: Build, channel: Channel, count: number): Promise<void> {
  const cpu = cpuMicros(build.daemon.pid);
  const shimCpu = cpuMicros(build.shimPid);
  const start = performance.now();
  await calls(build.sessions[channel], count);
  build.wallUs[channel].push(((performance.now() - start) * 1000) / count);
  build.cpuUs[channel].push((cpuMicros(build.daemon.pid) - cpu) / count);
  if (channel === 'shim') build.shimCpuUs.push((cpuMicros(build.shimPid) - shimCpu) / count);
}

async function measure(roots: readonly string[], rounds: number, count: number): Promise<void> {
  const builds: Build[] = [];
  try {
    for (const root of roots) builds.push(await open(root));
    for (const build of builds)
      for (const channel of CHANNELS) await calls(build.sessions[channel], WARMUP);
    for (let r = 0; r < rounds; r++) {
      for (const build of r % 2 === 0 ? builds : [...builds].reverse())
        for (const channel of CHANNELS) await round(build, channel, count);
    }
    for (const build of builds) {
      const figures = CHANNELS.map(
        (channel) =>
          `${channel} ${median(build.cpuUs[channel]).toFixed(0)} µs CPU, ${median(build.wallUs[channel]).toFixed(0)} µs round trip`,
      );
      const shim = `the shim itself ${median(build.shimCpuUs).toFixed(0)} µs CPU`;
      console.log(`${build.root}: per call: ${figures.join('; ')}; ${shim}`);
    }
  } finally {
    for (const build of builds) {
      for (const session of Object.values(build.sessions)) session.close();
      await build.daemon.stop();
    }
  }
}

const USAGE = 'usage: node dist/bench/call-cost.js [--rounds N] [--calls N] [other-repo-root …]\n';

/** The command line, or a usage message and exit code 2 (not a stack trace) when it is bad. */
function commandLine(): { roots: string[]; rounds: number; calls: number } {
  try {
    const { values, positionals } = parseArgs({
      options: {
        rounds: { type: 'string', default: '8' },
        calls: { type: 'string', default: '3000' },
      },
      allowPositionals: true,
    });
    const rounds = Number(values.rounds);
    const calls = Number(values.calls);
    if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(calls) || calls < 1)
      throw new Error('--rounds and --calls take a whole number of at least 1');
    const missing = positionals.find((root) => !existsSync(join(root, 'dist/src/main.js')));
    if (missing !== undefined)
      throw new Error(
        `${missing} is not a built clone (no dist/src/main.js): run npm run build in it`,
      );
    return { roots: [repoRoot, ...positionals], rounds, calls };
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
}

const { roots, rounds, calls: count } = commandLine();
await measure(roots, rounds, count);
