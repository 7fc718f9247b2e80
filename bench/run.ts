/**
 * `npm run bench [-- --quick]`: Coffer's overhead measured side by side with direct
 * connections to the same upstream, in the same run. Prints a markdown report on stdout
 * (progress on stderr), writes the JSON to bench/results/, and stops every process it
 * started. It reports; it asserts no timing. Exit 1 only when something could not run.
 */
import { existsSync } from 'node:fs';
import { startDaemon } from './daemon.js';
import { measureFanOut } from './fan-out.js';
import { describeMachine, loadAverage } from './machine.js';
import { measureMemory } from './memory.js';
import { parseOptions, USAGE, type BenchOptions } from './options.js';
import { killLeftovers } from './processes.js';
import { saveResults } from './results-file.js';
import { renderReport } from './report.js';
import { targetFailures, type BenchResults } from './results.js';
import { measureStartup } from './startup.js';
import { runUpstreamSuite } from './suite.js';
import { FIXTURE, everythingUpstream, fixtureUpstream } from './upstreams.js';

const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

async function attempt<T>(
  section: string,
  results: BenchResults,
  work: () => Promise<T>,
): Promise<T | undefined> {
  const started = performance.now();
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    results.failures.push({ section, message });
    log(`${section} FAILED: ${message}`);
    return undefined;
  } finally {
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const load1 = loadAverage()[0] ?? Number.NaN;
    results.timeline.push({ section, seconds, load1 });
    log(`${section}: ${seconds} s, load ${load1}`);
  }
}

/** The per-upstream runs: the fixture's echo, then server-everything's. */
async function runUpstreams(options: BenchOptions, results: BenchResults): Promise<void> {
  const { profile, sections, cpuProfDir } = options;
  if (sections.has('latency') || sections.has('throughput')) {
    const plan = {
      latency: sections.has('latency') ? profile.latency : undefined,
      throughput: sections.has('throughput') ? profile.throughput : undefined,
      capacity: sections.has('throughput') ? profile.capacity : undefined,
      cpuProfDir,
    };
    const run = await attempt('fixture', results, () =>
      runUpstreamSuite(fixtureUpstream, plan, log),
    );
    if (run !== undefined) results.runs.push(run);
  }
  if (sections.has('everything')) {
    const plan = { ...profile.everything, cpuProfDir };
    const run = await attempt('everything', results, () =>
      runUpstreamSuite(everythingUpstream, plan, log),
    );
    if (run !== undefined) results.runs.push(run);
  }
  for (const run of results.runs) results.failures.push(...targetFailures(run));
}

async function runSections(options: BenchOptions, results: BenchResults): Promise<void> {
  const { profile, sections, cpuProfDir } = options;
  await runUpstreams(options, results);
  if (sections.has('fan-out')) {
    const fanOut = await attempt('fan-out', results, () =>
      measureFanOut(profile.fanOut, cpuProfDir),
    );
    if (fanOut !== undefined) results.fanOut = fanOut;
  }
  if (sections.has('startup')) {
    const startup = await attempt('startup', results, () => startupWithDaemon(options));
    if (startup !== undefined) results.startup = startup;
  }
  if (sections.has('memory')) {
    const memory = await attempt('memory', results, () =>
      measureMemory(fixtureUpstream, profile.memory, cpuProfDir),
    );
    if (memory !== undefined) results.memory = memory;
  }
}

async function startupWithDaemon(options: BenchOptions) {
  const daemon = await startDaemon({ cpuProfDir: options.cpuProfDir });
  try {
    const { name, command, args } = fixtureUpstream;
    await daemon.addServer({ name, command, args });
    return await measureStartup(daemon, options.profile.startup);
  } finally {
    await daemon.stop();
  }
}

async function main(argv: readonly string[]): Promise<number> {
  let options: BenchOptions;
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
  if (!existsSync(FIXTURE)) throw new Error(`${FIXTURE} is missing: run \`npm run build\``);
  const results: BenchResults = {
    mode: options.quick ? 'quick' : 'full',
    command: ['npm run bench', ...(argv.length > 0 ? ['--', ...argv] : [])].join(' '),
    startedAt: new Date().toISOString(),
    machine: describeMachine(),
    runs: [],
    failures: [],
    timeline: [],
  };
  const started = performance.now();
  const interrupted = (): void => void killLeftovers().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    await runSections(options, results);
  } finally {
    const leftovers = await killLeftovers();
    if (leftovers.length > 0) log(`stopped leftover processes: ${leftovers.join(' ')}`);
  }
  results.durationS = Math.round((performance.now() - started) / 100) / 10;
  results.loadAtEnd = loadAverage();
  console.log(renderReport(results));
  log(`results: ${saveResults(results, `bench-${results.mode}`, results.mode)}`);
  return results.failures.length > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    void killLeftovers().finally(() => (process.exitCode = 1));
  },
);
