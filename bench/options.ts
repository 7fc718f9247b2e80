/** Command line of `npm run bench` and the two profiles: --quick (CI, < 1 min) and full. */
import type { CapacityProfile } from './capacity.js';
import type { FanOutProfile } from './fan-out.js';
import type { LatencyProfile } from './latency.js';
import type { MemoryProfile } from './memory.js';
import type { StartupProfile } from './startup.js';
import type { ThroughputProfile } from './throughput.js';

export const SECTIONS = [
  'latency',
  'throughput',
  'everything',
  'fan-out',
  'startup',
  'memory',
] as const;
export type Section = (typeof SECTIONS)[number];

export interface Profile {
  readonly latency: LatencyProfile;
  readonly throughput: ThroughputProfile;
  /** Part of the throughput section: a raw load generator instead of the SDK client. */
  readonly capacity: CapacityProfile;
  /** The second run, with server-everything's echo: latency and throughput. */
  readonly everything: {
    readonly latency: LatencyProfile;
    readonly throughput: ThroughputProfile;
    readonly capacity: CapacityProfile;
  };
  readonly fanOut: FanOutProfile;
  readonly startup: StartupProfile;
  readonly memory: MemoryProfile;
}

const FULL_LATENCY: LatencyProfile = {
  rounds: 5,
  callsPerRound: 400,
  // A daemon serving agents all day runs optimised code: calls 300 to 1,300 of a session
  // still cost 2-3x the warm CPU while V8 optimises (docs/PERFORMANCE.md). Every target
  // gets the same warm-up.
  warmup: 2_000,
  roundWarmup: 20,
};
const FULL_THROUGHPUT: ThroughputProfile = {
  levels: [1, 8, 16, 32],
  rounds: 3,
  durationMs: 1_500,
  warmupCalls: 1_000,
};
const FULL_CAPACITY: CapacityProfile = {
  sessions: 16,
  rounds: 3,
  durationMs: 1_500,
  warmupCalls: 2_000,
};
const QUICK_THROUGHPUT: ThroughputProfile = {
  levels: [1, 2],
  rounds: 1,
  durationMs: 500,
  warmupCalls: 20,
};
const QUICK_CAPACITY: CapacityProfile = {
  sessions: 2,
  rounds: 1,
  durationMs: 300,
  warmupCalls: 50,
};

export const FULL: Profile = {
  latency: FULL_LATENCY,
  throughput: FULL_THROUGHPUT,
  capacity: FULL_CAPACITY,
  everything: {
    latency: FULL_LATENCY,
    throughput: { ...FULL_THROUGHPUT, levels: [1, 16] },
    capacity: FULL_CAPACITY,
  },
  fanOut: {
    servers: 20,
    toolsPerServer: 50,
    coldReps: 3,
    warmCalls: 200,
    slowInitMs: 2_000,
    searchQueries: 200,
  },
  startup: { runningReps: 10, notRunningReps: 3 },
  memory: { extraSessions: 10 },
};

export const QUICK: Profile = {
  latency: { rounds: 2, callsPerRound: 100, warmup: 30, roundWarmup: 5 },
  throughput: QUICK_THROUGHPUT,
  capacity: QUICK_CAPACITY,
  everything: {
    latency: { rounds: 1, callsPerRound: 100, warmup: 20, roundWarmup: 5 },
    throughput: { ...QUICK_THROUGHPUT, levels: [1] },
    capacity: QUICK_CAPACITY,
  },
  fanOut: {
    servers: 3,
    toolsPerServer: 50,
    coldReps: 1,
    warmCalls: 20,
    slowInitMs: 1_000,
    searchQueries: 20,
  },
  startup: { runningReps: 1, notRunningReps: 1 },
  memory: { extraSessions: 2 },
};

export interface BenchOptions {
  readonly help: boolean;
  readonly quick: boolean;
  readonly profile: Profile;
  readonly sections: ReadonlySet<Section>;
  /** Run daemons (and shims) under --cpu-prof, writing .cpuprofile files here. */
  readonly cpuProfDir: string | undefined;
}

export const USAGE = `Usage: npm run bench -- [--help] [--quick] [--only ${SECTIONS.join(',')}] [--cpu-prof DIR]
  --quick         fewer calls and rounds (under a minute; what CI runs)
  --only LIST     run only these sections (comma-separated)
  --cpu-prof DIR  run the daemons and shims under node --cpu-prof, profiles written to DIR`;

export function parseOptions(argv: readonly string[]): BenchOptions {
  let quick = false;
  let help = false;
  let sections: Set<Section> = new Set(SECTIONS);
  let cpuProfDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') quick = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--only') sections = parseSections(argv[++i]);
    else if (arg === '--cpu-prof') cpuProfDir = requireValue(arg, argv[++i]);
    else throw new Error(`unknown argument: ${arg}`);
  }
  return { help, quick, profile: quick ? QUICK : FULL, sections, cpuProfDir };
}

function parseSections(value: string | undefined): Set<Section> {
  const names = requireValue('--only', value).split(',');
  const unknown = names.filter((name) => !(SECTIONS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown section(s): ${unknown.join(', ')}`);
  return new Set(names as Section[]);
}

function requireValue(flag: string, value: string | undefined): string {
  if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
  return value;
}
