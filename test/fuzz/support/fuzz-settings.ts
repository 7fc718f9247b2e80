/**
 * How big a fuzz run is. `npm test` runs the bounded CI size with a fixed seed, so a
 * failure reproduces; `npm run fuzz` sets COFFER_FUZZ_RUNS (and a random seed unless
 * COFFER_FUZZ_SEED is given). The seed is printed either way: re-run a failure with
 * `COFFER_FUZZ_SEED=<seed> COFFER_FUZZ_RUNS=<runs> npx vitest run --project fuzz`.
 */
export interface FuzzSettings {
  readonly seed: number;
  /** Runs per property; the targets scale their batches from it. */
  readonly numRuns: number;
  readonly long: boolean;
}

const CI_SEED = 20_261_202;
const CI_RUNS = 30;

function whole(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value))
    throw new Error(`${name} must be a whole number, not "${text}"`);
  return value;
}

export function fuzzSettings(): FuzzSettings {
  const runs = whole('COFFER_FUZZ_RUNS');
  const seed = whole('COFFER_FUZZ_SEED') ?? (runs === undefined ? CI_SEED : randomSeed());
  return { seed, numRuns: runs ?? CI_RUNS, long: runs !== undefined };
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/** A line in the test output (seeds, memory figures): what a replay or a report needs. */
export function fuzzLog(line: string): void {
  process.stdout.write(`[fuzz] ${line}\n`);
}

/** fast-check parameters for one property, logged so any run can be replayed. */
export function propertyParameters(label: string, settings: FuzzSettings, runs = settings.numRuns) {
  fuzzLog(`${label}: seed=${settings.seed} numRuns=${runs}`);
  return { seed: settings.seed, numRuns: runs, endOnFailure: !settings.long } as const;
}
