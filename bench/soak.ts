/**
 * `npm run soak [-- --minutes 10 --sessions 32 --churn-seconds 60]`: the daemon under a long
 * steady load on /mcp. Every session calls the fixture's `echo` in a closed loop and is
 * replaced now and then (so session teardown is soaked too); the daemon's RSS is sampled
 * every few seconds. Reports calls, errors, latency percentiles, a table of RSS every
 * ~30 s and a plateau verdict; markdown on stdout (progress on stderr), JSON in
 * bench/results/. It reports; it asserts nothing. Exit 1 when calls failed or the run broke.
 */
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDaemon, type BenchDaemon } from './daemon.js';
import { describeMachine, loadAverage } from './machine.js';
import { rssKb } from './proc-readings.js';
import { descendants, killLeftovers } from './processes.js';
import { saveResults } from './results-file.js';
import { parseOptions, USAGE, type SoakOptions } from './soak-options.js';
import { judgePlateau, renderSoak, type SoakResults } from './soak-report.js';
import { percentile, percentiles } from './stats.js';
import { cofferHttpTransport, openSession, type BenchSession } from './targets.js';
import { FIXTURE, fixtureUpstream } from './upstreams.js';

/** RSS is read this often (s); a table row is written about this often (s). */
const SAMPLE_S = 5;
const ROW_S = 30;
const log = (line: string): void => void process.stderr.write(`[soak] ${line}\n`);

/** What the workers share: the clock, the counters, and the current window's latencies. */
class Load {
  calls = 0;
  errors = 0;
  sessionsOpened = 0;
  readonly all: number[] = [];
  window: number[] = [];
  windowErrors = 0;
  readonly errorSamples: string[] = [];
  readonly started = performance.now();

  constructor(readonly deadline: number) {}

  elapsedS(): number {
    return (performance.now() - this.started) / 1000;
  }

  record(ms: number, ok: boolean, error?: unknown): void {
    this.calls += 1;
    this.all.push(ms);
    this.window.push(ms);
    if (ok) return;
    this.errors += 1;
    this.windowErrors += 1;
    if (this.errorSamples.length < 10) {
      this.errorSamples.push(describeError(error));
    }
  }
}

/** fetch's "fetch failed" hides the reason in `cause`: keep both. */
function describeError(error: unknown): string {
  if (error === undefined) return 'isError result';
  if (!(error instanceof Error)) return JSON.stringify(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

const tool = `${fixtureUpstream.name}__${fixtureUpstream.tool}`;

/** Opens a session; a failure counts as an error and is retried (the run must go on). */
async function open(daemon: BenchDaemon, load: Load): Promise<BenchSession | undefined> {
  const started = performance.now();
  try {
    const session = await openSession(cofferHttpTransport(daemon), tool, fixtureUpstream.arguments);
    load.sessionsOpened += 1;
    return session;
  } catch (error) {
    load.record(performance.now() - started, false, error);
    await sleep(1000);
    return undefined;
  }
}

async function close(session: BenchSession | undefined, load: Load): Promise<void> {
  await session?.close().catch((error: unknown) => load.record(0, false, error));
}

/** One session slot: closed-loop calls, replaced every churnSeconds, until the deadline. */
async function worker(daemon: BenchDaemon, load: Load, churnS: number, index: number) {
  let session: BenchSession | undefined;
  // Staggered, so replacements spread over the run instead of arriving together.
  let replaceAt = performance.now() + (churnS * 1000 * (index + 1)) / (index + 2);
  while (performance.now() < load.deadline) {
    if (churnS > 0 && performance.now() >= replaceAt) {
      await close(session, load);
      session = undefined;
      replaceAt = performance.now() + churnS * 1000;
    }
    session ??= await open(daemon, load);
    if (session === undefined) continue;
    const started = performance.now();
    try {
      const ok = await session.call();
      load.record(performance.now() - started, ok);
    } catch (error) {
      load.record(performance.now() - started, false, error);
    }
  }
  await close(session, load);
}

/** RSS every SAMPLE_S; a table row every ROW_S, with that window's calls, p99 and errors. */
async function sample(daemon: BenchDaemon, load: Load, results: SoakResults): Promise<void> {
  let lastRow = 0;
  let callsAtLastRow = 0;
  while (performance.now() < load.deadline) {
    await sleep(SAMPLE_S * 1000);
    const t = load.elapsedS();
    const rssMb = rssKb(daemon.pid) / 1024;
    results.samples.push({ t, rssMb });
    if (t - lastRow < ROW_S - 1 && performance.now() < load.deadline) continue;
    results.rows.push({
      t,
      rssMb,
      calls: load.calls,
      callsPerS: (load.calls - callsAtLastRow) / (t - lastRow),
      p99Ms: percentile(load.window, 99),
      errors: load.windowErrors,
      load1: loadAverage()[0] ?? Number.NaN,
    });
    log(
      `${Math.round(t)} s: RSS ${rssMb.toFixed(1)} MB, ${load.calls} calls, ${load.errors} errors`,
    );
    load.window = [];
    load.windowErrors = 0;
    lastRow = t;
    callsAtLastRow = load.calls;
  }
}

/**
 * The upstream processes still running once every session has closed. Closed sessions end
 * theirs in the background: the count is taken when none is left, or after 10 s.
 */
async function leftoverUpstreams(daemonPid: number): Promise<number> {
  const deadline = performance.now() + 10_000;
  let left = descendants(daemonPid).length;
  while (left > 0 && performance.now() < deadline) {
    await sleep(100);
    left = descendants(daemonPid).length;
  }
  return left;
}

async function soak(options: SoakOptions, results: SoakResults): Promise<void> {
  const daemon = await startDaemon();
  try {
    const { name, command, args } = fixtureUpstream;
    await daemon.addServer({ name, command, args });
    await sleep(1000);
    results.idleRssMb = rssKb(daemon.pid) / 1024;
    const load = new Load(performance.now() + options.minutes * 60_000);
    log(`${options.sessions} sessions for ${options.minutes} min on ${daemon.url}/mcp`);
    await Promise.all([
      ...Array.from({ length: options.sessions }, (_, index) =>
        worker(daemon, load, options.churnSeconds, index),
      ),
      sample(daemon, load, results),
    ]);
    Object.assign(results, {
      calls: load.calls,
      errors: load.errors,
      errorSamples: load.errorSamples,
      sessionsOpened: load.sessionsOpened,
      latency: percentiles(load.all),
      plateau: judgePlateau(results.samples),
    });
    results.leftoverUpstreams = await leftoverUpstreams(daemon.pid);
  } finally {
    await daemon.stop();
  }
}

async function main(argv: readonly string[]): Promise<number> {
  let options: SoakOptions;
  try {
    options = parseOptions(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  if (options.report !== undefined) {
    // The verdict is judged again from the samples, so a saved run reads like a new one.
    const saved = JSON.parse(readFileSync(options.report, 'utf8')) as SoakResults;
    const plateau = judgePlateau(saved.samples);
    console.log(renderSoak(plateau === undefined ? saved : { ...saved, plateau }));
    return 0;
  }
  if (!existsSync(FIXTURE)) throw new Error(`${FIXTURE} is missing: run \`npm run build\``);
  const results: SoakResults = {
    command: ['npm run soak', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
    startedAt: new Date().toISOString(),
    machine: describeMachine(),
    minutes: options.minutes,
    sessions: options.sessions,
    churnSeconds: options.churnSeconds,
    calls: 0,
    errors: 0,
    errorSamples: [],
    sessionsOpened: 0,
    rows: [],
    samples: [],
  };
  const started = performance.now();
  const interrupted = (): void => void killLeftovers().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await soak(options, results);
  } finally {
    const leftovers = await killLeftovers();
    if (leftovers.length > 0) log(`stopped leftover processes: ${leftovers.join(' ')}`);
  }
  results.durationS = Math.round((performance.now() - started) / 100) / 10;
  console.log(renderSoak(results));
  log(`results: ${saveResults(results, 'soak', 'soak')}`);
  return results.errors > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`soak failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    void killLeftovers().finally(() => (process.exitCode = 1));
  },
);
