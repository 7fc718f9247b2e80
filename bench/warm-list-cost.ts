/**
 * The daemon's CPU per warm `tools/list` of the fan-out catalog (20 fixture upstreams × 50
 * tools, as the bench's fan-out section registers them): through /mcp in a session
 * (`mcp`), through the shim's socket channel (`socket`), and as 2026-07-28 requests on
 * /mcp without a session (`modern`). The client is raw (node:http, a socket, no JSON parse per
 * listing), so the daemon's share is not drowned by an SDK client's schema checks; CPU is
 * read from /proc around each batch of listings.
 *
 *   node dist/bench/warm-list-cost.js [--sdk] [--cpu-prof DIR] [other-repo-root …]
 *
 * `--sdk` adds the fan-out section's own client (the SDK's, bench/targets.ts) as a channel,
 * with fewer listings: its figure is the one the bench reports beside its round trip.
 *
 * Each build also lists through its own `coffer shim` (a raw client on the shim's stdio,
 * as an agent talks to it): the round trip and the shim's CPU per listing are reported
 * beside the daemon's figures.
 *
 * Other roots (built clones of this repository) get their own daemon in the same run,
 * rounds taken in turn, so that a before and an after see the same machine. The answers
 * of every build are compared byte for byte (apart from the request id), per channel.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  rawHttpSession,
  rawModernHttp,
  rawShimSession,
  rawSocketSession,
  type RawSession,
} from './raw-sessions.js';
import { repoRoot, startDaemon, type BenchDaemon } from './daemon.js';
import { cpuMicros } from './proc-readings.js';
import { cofferHttpTransport, openSession } from './targets.js';
import { median } from './stats.js';
import { fanOutServer } from './upstreams.js';

const SERVERS = 20;
const TOOLS_PER_SERVER = 50;
const ROUNDS = 10;
const LISTINGS_PER_ROUND = 300;
const WARMUP = 500;

type Channel = 'mcp' | 'socket' | 'modern' | 'sdk';
const RAW: readonly Channel[] = ['mcp', 'socket', 'modern'];
/** The SDK client parses every tool (several ms a listing): it gets a third of the listings. */
const SDK_SHARE = 3;

interface Build {
  readonly root: string;
  readonly daemon: BenchDaemon;
  readonly sessions: Partial<Record<Channel, RawSession>>;
  readonly perListingUs: Record<Channel, number[]>;
  readonly shim: RawSession & { readonly pid: number };
  /** Per round, through the shim: round trip and the shim's CPU per listing (µs). */
  readonly viaShim: { readonly wallUs: number[]; readonly shimUs: number[] };
}

/** The fan-out section's client as a channel; its answers are parsed, not handed back. */
async function sdkSession(daemon: BenchDaemon): Promise<RawSession> {
  const session = await openSession(cofferHttpTransport(daemon), '');
  return {
    request: async () => {
      await session.listTools();
      return Buffer.alloc(0);
    },
    close: () => void session.close(),
  };
}

async function open(root: string, sdk: boolean, cpuProfDir?: string): Promise<Build> {
  const daemon = await startDaemon({ bin: join(root, 'bin/coffer.js'), cpuProfDir });
  try {
    for (let i = 1; i <= SERVERS; i++) await daemon.addServer(fanOutServer(i, TOOLS_PER_SERVER));
    const info = JSON.parse(readFileSync(join(daemon.home, 'daemon.json'), 'utf8')) as {
      socket?: string;
    };
    if (info.socket === undefined) throw new Error(`${root}: the daemon has no socket channel`);
    const mcp = await rawHttpSession(daemon.url, daemon.token);
    const socket = await rawSocketSession(info.socket, daemon.token);
    const modern = rawModernHttp(daemon.url, daemon.token);
    const shim = await rawShimSession(join(root, 'bin/coffer.js'), daemon.env);
    return {
      root,
      daemon,
      sessions: { mcp, socket, modern, ...(sdk ? { sdk: await sdkSession(daemon) } : {}) },
      perListingUs: { mcp: [], socket: [], modern: [], sdk: [] },
      shim,
      viaShim: { wallUs: [], shimUs: [] },
    };
  } catch (error) {
    await daemon.stop();
    throw error;
  }
}

/** The answer without its id, hashed: what every build and channel must agree on. */
function answerDigest(answer: Buffer): string {
  const text = answer.toString('utf8');
  const parsed = JSON.parse(text) as { result?: { tools?: unknown[] } };
  const tools = parsed.result?.tools?.length ?? 0;
  if (tools < SERVERS * TOOLS_PER_SERVER) throw new Error(`only ${tools} tools listed`);
  const withoutId = text.replace(/^\{"jsonrpc":"2\.0","id":[^,]+,/, '');
  return `${tools} tools, ${answer.length} bytes, ${createHash('sha256').update(withoutId).digest('hex').slice(0, 16)}`;
}

async function listings(session: RawSession, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await session.request('tools/list');
}

async function measure(options: Options): Promise<void> {
  const builds: Build[] = [];
  const channels: readonly Channel[] = options.sdk ? [...RAW, 'sdk'] : RAW;
  const count = (channel: Channel, listings: number) =>
    channel === 'sdk' ? Math.ceil(listings / SDK_SHARE) : listings;
  try {
    for (const root of options.roots) builds.push(await open(root, options.sdk, options.cpuProf));
    await compareAnswers(builds);
    for (const build of builds) {
      for (const channel of channels)
        await listings(build.sessions[channel]!, count(channel, WARMUP));
      await listings(build.shim, Math.ceil(WARMUP / SDK_SHARE));
    }
    for (let round = 0; round < ROUNDS; round++) {
      // Each round swaps who goes first, so neither build always follows the other.
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        for (const channel of channels) {
          const listed = count(channel, LISTINGS_PER_ROUND);
          const before = cpuMicros(build.daemon.pid);
          await listings(build.sessions[channel]!, listed);
          build.perListingUs[channel].push((cpuMicros(build.daemon.pid) - before) / listed);
        }
        await throughShim(build, Math.ceil(LISTINGS_PER_ROUND / SDK_SHARE));
      }
    }
    report(builds, channels);
  } finally {
    for (const build of builds) {
      for (const session of Object.values(build.sessions)) session.close();
      build.shim.close();
      await build.daemon.stop();
    }
  }
}

/** Every build's answer on every raw channel, hashed without its id: they must agree. */
async function compareAnswers(builds: readonly Build[]): Promise<void> {
  for (const channel of RAW) {
    const seen = new Set<string>();
    for (const build of builds) {
      const digest = answerDigest(await build.sessions[channel]!.request('tools/list'));
      console.log(`${build.root} ${channel}: ${digest}`);
      seen.add(digest);
    }
    if (seen.size > 1) console.log(`WARNING: the builds answer differently on ${channel}`);
  }
}

async function throughShim(build: Build, listed: number): Promise<void> {
  const cpu = cpuMicros(build.shim.pid);
  const start = performance.now();
  await listings(build.shim, listed);
  build.viaShim.wallUs.push(((performance.now() - start) * 1000) / listed);
  build.viaShim.shimUs.push((cpuMicros(build.shim.pid) - cpu) / listed);
}

function report(builds: readonly Build[], channels: readonly Channel[]): void {
  for (const build of builds) {
    const figures = channels.map((channel) => {
      const us = build.perListingUs[channel];
      const rounds = us.map((value) => (value / 1000).toFixed(2)).join(' ');
      return `${channel} ${(median(us) / 1000).toFixed(2)} ms (rounds: ${rounds})`;
    });
    console.log(`${build.root}: daemon CPU per warm listing: ${figures.join('; ')}`);
    const { wallUs, shimUs } = build.viaShim;
    const msOf = (us: number[]) => (median(us) / 1000).toFixed(2);
    console.log(
      `${build.root}: through coffer shim: ${msOf(wallUs)} ms per listing, the shim's CPU ${msOf(shimUs)} ms`,
    );
  }
}

interface Options {
  readonly roots: readonly string[];
  readonly sdk: boolean;
  readonly cpuProf?: string;
}

function parseArgs(argv: readonly string[]): Options {
  const roots = [repoRoot];
  let cpuProf: string | undefined;
  let sdk = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--cpu-prof') cpuProf = argv[++i];
    else if (argv[i] === '--sdk') sdk = true;
    else roots.push(argv[i]!);
  }
  return cpuProf === undefined ? { roots, sdk } : { roots, sdk, cpuProf };
}

await measure(parseArgs(process.argv.slice(2)));
