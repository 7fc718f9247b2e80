/**
 * What recording one relayed call costs the daemon: its activity log line and its
 * activity row (src/daemon/activity-writer.ts over src/store/activity-repository.ts, a
 * real WAL database and a real coffer.log in a temporary directory). It prints the
 * process CPU per call, median across rounds, of:
 *
 * - `line`: ActivityWriter.record with a store that keeps nothing (the log line, the queue);
 * - `row`: the repository's append, in the writer's batches of 500;
 * - `both`: ActivityWriter.record, then its flush into the database: the daemon's path.
 *
 *   node dist/bench/record-cost.js [other-repo-root …]
 *
 * Other roots (built clones of this repository) are measured in the same process, rounds
 * taken in turn, so that a before and an after see the same machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './daemon.js';
import { median } from './stats.js';

const ROUNDS = 20;
const CALLS_PER_ROUND = 5_000;
const WARMUP_ROUNDS = 3;
const BATCH = 500;

type Entry = Record<string, string | number | null>;

interface Writer {
  record(entry: Entry): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

interface Recorder {
  readonly root: string;
  readonly dir: string;
  /** Runs `fn` inside a request's trace where the build's log mixin reads one from ALS. */
  readonly inTrace: (fn: () => void) => void;
  readonly append: (entries: readonly Entry[]) => Promise<void>;
  readonly lineOnly: Writer;
  readonly both: Writer;
  readonly flushLog: () => void;
  readonly close: () => Promise<void>;
  readonly perCallUs: Record<Measure, number[]>;
}

type Measure = 'line' | 'row' | 'both';
const MEASURES: readonly Measure[] = ['line', 'row', 'both'];

type Module = Record<string, (...args: never[]) => unknown>;

async function open(root: string): Promise<Recorder> {
  const load = (path: string) => import(join(root, 'dist/src', path)) as Promise<Module>;
  const store = await load('store/index.js');
  const writerModule = await load('daemon/activity-writer.js');
  const { createLogger } = await load('observability/logger.js');
  const { sharedRotatingFile } = await load('observability/rotating-file.js');
  const trace = await load('observability/trace-context.js');
  const dir = mkdtempSync(join(tmpdir(), 'coffer-record-cost-'));
  const db = (await store['openDatabase']!(join(dir, 'coffer.db') as never)) as {
    close(): Promise<void>;
  };
  const repos = store['createRepositories']!(db as never) as {
    activity: { append(entries: readonly Entry[]): Promise<void> };
  };
  const log = join(dir, 'coffer.log');
  const logger = createLogger!({ destination: log, level: 'info' } as never);
  const Writer = writerModule['ActivityWriter'] as unknown as new (options: object) => Writer;
  const options = {
    ...(writerModule['DEFAULT_ACTIVITY_SETTINGS'] as unknown as object),
    clock: { now: () => new Date() },
    logger,
    flushDelayMs: 600_000,
    batchSize: BATCH,
  };
  const keepNothing = { append: () => Promise.resolve(), prune: () => Promise.resolve(0) };
  const context = (trace['newTraceContext'] as unknown as (extra: object) => object)({
    sessionId: 'c0ffee00-0000-4000-8000-000000000000',
  });
  // Builds before 4086afb read the trace from AsyncLocalStorage; later ones pass it along
  // (the entry's trace_id names it), so there is nothing to enter.
  const runWithTrace = trace['runWithTrace'];
  const both = new Writer({ ...options, repository: repos.activity });
  return {
    root,
    dir,
    inTrace: (fn) =>
      runWithTrace === undefined ? fn() : void runWithTrace(context as never, fn as never),
    append: (entries) => repos.activity.append(entries),
    lineOnly: new Writer({ ...options, repository: keepNothing }),
    both,
    flushLog: () => (sharedRotatingFile!(log as never) as { flushSync(): void }).flushSync(),
    close: async () => {
      await both.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
    perCallUs: { line: [], row: [], both: [] },
  };
}

/** Entries as CallAudit builds them for a relayed tools/call. */
function entries(count: number): Entry[] {
  const at = new Date().toISOString();
  return Array.from({ length: count }, (_, i) => ({
    at,
    trace_id: (i + 0x10_0000).toString(16).padStart(32, 'a'),
    session_id: 'c0ffee00-0000-4000-8000-000000000000',
    client_name: 'claude-code',
    client_version: '2.1.0',
    server: 'fixture',
    capability_type: 'tool',
    capability_key: 'echo',
    action: 'tools/call',
    duration_ms: 1,
    outcome: i % 50 === 0 ? 'error' : 'ok',
    error_code: i % 50 === 0 ? 'RPC_-32602' : null,
    guard: null,
  }));
}

async function run(recorder: Recorder, measure: Measure, batch: readonly Entry[]): Promise<void> {
  if (measure === 'row') {
    for (let start = 0; start < batch.length; start += BATCH)
      await recorder.append(batch.slice(start, start + BATCH));
    return;
  }
  const writer = measure === 'line' ? recorder.lineOnly : recorder.both;
  recorder.inTrace(() => {
    for (const entry of batch) writer.record(entry);
  });
  await writer.flush();
  recorder.flushLog();
}

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

async function round(recorders: readonly Recorder[], keep: boolean): Promise<void> {
  for (const measure of MEASURES) {
    for (const recorder of recorders) {
      const batch = entries(CALLS_PER_ROUND);
      const before = cpuMicros();
      await run(recorder, measure, batch);
      const spent = (cpuMicros() - before) / CALLS_PER_ROUND;
      if (keep) recorder.perCallUs[measure].push(spent);
    }
  }
}

async function measureAll(roots: readonly string[]): Promise<void> {
  const recorders: Recorder[] = [];
  try {
    for (const root of roots) recorders.push(await open(root));
    for (let i = 0; i < WARMUP_ROUNDS; i++) await round(recorders, false);
    // Each round swaps who goes first, so neither build always follows the other's garbage.
    for (let i = 0; i < ROUNDS; i++)
      await round(i % 2 === 0 ? recorders : [...recorders].reverse(), true);
    for (const recorder of recorders) {
      const figures = MEASURES.map((measure) => {
        const us = recorder.perCallUs[measure];
        const spread = `${Math.min(...us).toFixed(1)}–${Math.max(...us).toFixed(1)}`;
        return `${measure} ${median(us).toFixed(1)} µs (${spread})`;
      });
      console.log(`${recorder.root}: per call: ${figures.join(', ')}`);
    }
  } finally {
    for (const recorder of recorders) await recorder.close();
  }
}

await measureAll([repoRoot, ...process.argv.slice(2)]);
