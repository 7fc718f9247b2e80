/**
 * Node/V8 flags for the daemon, compared in one run: one daemon per variant (each its own
 * COFFER_HOME), each with a session on `/mcp` and one through `coffer shim`, calling the
 * fixture's `echo`. After a warm-up, rounds of sequential calls are taken in turn over every
 * (variant, path), the order rotated each round; the daemon's CPU per call is read from
 * /proc around each round, and its VmRSS after each. The machine is shared, so only figures
 * from the same run are compared, and per round.
 *
 *   node dist/bench/daemon-flags.js [--rounds 8] [--calls 2000] [--warmup 3000] [--gc-count] [-- variant …]
 *
 * A variant is a comma-separated list of node flags, `none` for none; the default variants
 * are none and `--max-semi-space-size=16`, `=32`, `=64`. `--gc-count` runs every daemon
 * under `--trace-gc` too, and also reports their scavenges and mark-compacts per 1,000 calls
 * in those same rounds (the tracing's printing costs CPU: compare CPU without it).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cofferBin, repoRoot, startDaemon, type BenchDaemon } from './daemon.js';
import { count, mb, table } from './format.js';
import { loadAverage } from './machine.js';
import { cpuMicros, readStat, rssKb, statFields } from './proc-readings.js';
import { killLeftovers } from './processes.js';
import { median } from './stats.js';
import { cofferHttpTransport, openSession, stdioTransport, type BenchSession } from './targets.js';
import { fixtureUpstream } from './upstreams.js';

const PATHS = ['shim', 'mcp'] as const;
type PathId = (typeof PATHS)[number];
const DEFAULT_VARIANTS = ['none', ...[16, 32, 64].map((mb) => `--max-semi-space-size=${mb}`)];

interface Variant {
  readonly label: string;
  readonly daemon: BenchDaemon;
  readonly sessions: Readonly<Record<PathId, BenchSession>>;
  readonly idleRssKb: number;
  readonly rounds: Record<PathId, Rounds>;
  readonly gc: GcCount;
}

/** Per round: daemon CPU µs per call, mean wall ms per call, RSS after (KiB). */
interface Rounds {
  readonly cpuUs: number[];
  readonly wallMs: number[];
  readonly rssKb: number[];
  /** Minor page faults per call (pages the heap touched afresh, e.g. a regrown new space). */
  readonly faults: number[];
  /** Collections over all the rounds (with `--gc-count`). */
  readonly gc: GcCount;
}

/** Collections seen in `--trace-gc` lines, and their pauses (ms, the main thread's). */
interface GcCount {
  scavenges: number;
  scavengeMs: number;
  markCompacts: number;
  markCompactMs: number;
}

async function startVariant(label: string, traceGc: boolean): Promise<Variant> {
  const flags = label === 'none' ? [] : label.split(',');
  const gc = noGc();
  const daemon = await startDaemon({
    nodeArgs: traceGc ? [...flags, '--trace-gc'] : flags,
    ...(traceGc ? { onStdout: (chunk: string) => countGcLines(chunk, gc) } : {}),
  });
  try {
    const { name, command, args } = fixtureUpstream;
    await daemon.addServer({ name, command, args });
    const idleRssKb = rssKb(daemon.pid);
    const sessions = await openSessions(daemon);
    const empty = (): Rounds => ({ cpuUs: [], wallMs: [], rssKb: [], faults: [], gc: noGc() });
    return { label, daemon, sessions, idleRssKb, rounds: { shim: empty(), mcp: empty() }, gc };
  } catch (error) {
    await daemon.stop();
    throw error;
  }
}

async function openSessions(daemon: BenchDaemon): Promise<Record<PathId, BenchSession>> {
  const tool = `${fixtureUpstream.name}__${fixtureUpstream.tool}`;
  const shimLine = stdioTransport(process.execPath, [cofferBin, 'shim'], daemon.env);
  return {
    shim: await openSession(shimLine, tool, fixtureUpstream.arguments),
    mcp: await openSession(cofferHttpTransport(daemon), tool, fixtureUpstream.arguments),
  };
}

function noGc(): GcCount {
  return { scavenges: 0, scavengeMs: 0, markCompacts: 0, markCompactMs: 0 };
}

/** `--trace-gc` prints one line per collection: `[pid:0x…] 12 ms: Scavenge 4.1 (5.0) -> …`. */
function countGcLines(chunk: string, gc: GcCount): void {
  for (const line of chunk.split('\n')) {
    const pause = Number(/MB, ([\d.]+) \/ [\d.]+ ms/.exec(line)?.[1] ?? 0);
    if (line.includes(': Scavenge')) {
      gc.scavenges++;
      gc.scavengeMs += pause;
    } else if (line.includes(': Mark-Compact') || line.includes(': Mark-sweep')) {
      gc.markCompacts++;
      gc.markCompactMs += pause;
    }
    if (process.env['DAEMON_FLAGS_GC_ECHO'] === '1' && line.trim() !== '') console.error(line);
  }
}

/**
 * bin/coffer.js runs the bundle only when it is as new as dist/src: after a bare `tsc` the
 * daemons run the unbundled code, ~20 MB bigger and not what users run (`npm run build`).
 */
function bundled(): boolean {
  const modified = (path: string) => statSync(join(repoRoot, path), { throwIfNoEntry: false });
  const bundle = modified('dist/bundle/main.js');
  const compiled = modified('dist/src/main.js');
  return bundle !== undefined && (compiled === undefined || bundle.mtimeMs >= compiled.mtimeMs);
}

/** Field 10 of /proc/<pid>/stat. */
function minorFaults(pid: number): number {
  return Number(statFields(readStat(pid))[10 - 3]);
}

async function calls(session: BenchSession, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    if (!(await session.call())) throw new Error('a tools/call failed');
  }
}

async function measureRound(variant: Variant, path: PathId, n: number): Promise<void> {
  const pid = variant.daemon.pid;
  const gcBefore = { ...variant.gc };
  const faultsBefore = minorFaults(pid);
  const cpuBefore = cpuMicros(pid);
  const start = performance.now();
  await calls(variant.sessions[path], n);
  const wall = performance.now() - start;
  const record = variant.rounds[path];
  record.cpuUs.push((cpuMicros(pid) - cpuBefore) / n);
  record.wallMs.push(wall / n);
  record.rssKb.push(rssKb(pid));
  record.faults.push((minorFaults(pid) - faultsBefore) / n);
  // A trace line still in the pipe counts in this variant's next round: the sums hold.
  for (const key of Object.keys(gcBefore) as (keyof GcCount)[]) {
    record.gc[key] += variant.gc[key] - gcBefore[key];
  }
}

/** Every (variant, path) once per round, the order rotated by one each round. */
async function interleaved(variants: readonly Variant[], rounds: number, n: number) {
  const pairs = variants.flatMap((variant) => PATHS.map((path) => ({ variant, path })));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < pairs.length; i++) {
      const { variant, path } = pairs[(i + round) % pairs.length]!;
      await measureRound(variant, path, n);
    }
    process.stderr.write(`round ${round + 1}/${rounds} done, load ${loadAverage()[0]}\n`);
  }
}

/** Per round, this variant's CPU per call minus the first variant's, in µs: the median. */
function medianDelta(variant: Variant, base: Variant, path: PathId): number {
  const own = variant.rounds[path].cpuUs;
  return median(own.map((us, round) => us - base.rounds[path].cpuUs[round]!));
}

function cpuReport(variants: readonly Variant[]): string {
  const base = variants[0]!;
  const rows = PATHS.flatMap((path) =>
    variants.map((v) => {
      const cpu = v.rounds[path].cpuUs;
      const delta = v === base ? '—' : `${medianDelta(v, base, path).toFixed(0)}`;
      return [
        path === 'mcp' ? '/mcp' : 'shim',
        `\`${v.label}\``,
        median(cpu).toFixed(0),
        `${Math.min(...cpu).toFixed(0)}–${Math.max(...cpu).toFixed(0)}`,
        delta,
        median(v.rounds[path].wallMs).toFixed(3),
        median(v.rounds[path].faults).toFixed(2),
        mb(median(v.rounds[path].rssKb) / 1024),
      ];
    }),
  );
  const header = ['path', 'flags', 'µs CPU/call', 'rounds min–max', 'Δ vs first, per round'];
  return table([...header, 'ms/call (wall)', 'minor faults/call', 'RSS during'], rows);
}

function gcReport(variants: readonly Variant[], n: number): string {
  const rows = PATHS.flatMap((path) =>
    variants.map((v) => {
      const { gc, cpuUs } = v.rounds[path];
      const calls = cpuUs.length * n;
      const per1k = (value: number) => ((value * 1_000) / calls).toFixed(1);
      const usPerCall = (ms: number) => ((ms * 1_000) / calls).toFixed(1);
      return [
        path === 'mcp' ? '/mcp' : 'shim',
        `\`${v.label}\``,
        per1k(gc.scavenges),
        usPerCall(gc.scavengeMs),
        per1k(gc.markCompacts),
        usPerCall(gc.markCompactMs),
      ];
    }),
  );
  const header = ['path', 'flags', 'scavenges / 1k calls', 'scavenge pause µs/call'];
  return table([...header, 'mark-compacts / 1k calls', 'mark-compact pause µs/call'], rows);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      rounds: { type: 'string', default: '8' },
      calls: { type: 'string', default: '2000' },
      warmup: { type: 'string', default: '3000' },
      'gc-count': { type: 'boolean', default: false },
    },
  });
  const labels = positionals.length > 0 ? positionals : DEFAULT_VARIANTS;
  const rounds = Number(values.rounds);
  const n = Number(values.calls);
  const warmup = Number(values.warmup);
  const traceGc = values['gc-count'];
  console.log(`load at start: ${loadAverage().join(' ')}`);
  if (!bundled())
    console.log('NOTE: dist/bundle is older than dist/src: the daemons run unbundled');
  const variants: Variant[] = [];
  // Ctrl-C: the daemons, shims and upstreams run in sessions of their own and would stay.
  process.once('SIGINT', () => void killLeftovers().finally(() => process.exit(130)));
  try {
    for (const label of labels) variants.push(await startVariant(label, traceGc));
    for (const variant of variants) {
      for (const path of PATHS) await calls(variant.sessions[path], warmup);
    }
    await interleaved(variants, rounds, n);
    console.log(`${rounds} rounds of ${count(n)} calls per (flags, path), after ${warmup} warm-up`);
    console.log(cpuReport(variants));
    const idle = variants.map((v) => `\`${v.label}\` ${mb(v.idleRssKb / 1024)}`);
    console.log(`\nRSS before any session: ${idle.join(', ')}`);
    for (const v of variants) {
      const line = (path: PathId) => v.rounds[path].cpuUs.map((us) => us.toFixed(0)).join(' ');
      console.log(`${v.label}: shim ${line('shim')} | /mcp ${line('mcp')}`);
    }
    if (traceGc) console.log(`\nUnder --trace-gc:\n${gcReport(variants, n)}`);
    console.log(`load at end: ${loadAverage().join(' ')}`);
  } finally {
    for (const variant of variants) {
      await Promise.all(PATHS.map((path) => variant.sessions[path].close().catch(() => undefined)));
      await variant.daemon.stop();
    }
    await killLeftovers();
  }
}

await main();
