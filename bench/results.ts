/** The shape of one bench run (what bench/results/*.json holds), and its failures. */
import type { FanOutResult } from './fan-out.js';
import type { Machine } from './machine.js';
import type { MemoryResult } from './memory.js';
import type { StartupResult } from './startup.js';
import type { UpstreamRun } from './suite.js';

export interface Failure {
  readonly section: string;
  readonly message: string;
}

/** How long a section took and the 1-minute load average when it ended. */
export interface SectionTime {
  readonly section: string;
  readonly seconds: number;
  readonly load1: number;
}

export interface BenchResults {
  readonly mode: 'quick' | 'full';
  readonly command: string;
  readonly startedAt: string;
  readonly machine: Machine;
  durationS?: number;
  loadAtEnd?: readonly number[];
  readonly runs: UpstreamRun[];
  fanOut?: FanOutResult;
  startup?: StartupResult;
  memory?: MemoryResult;
  readonly failures: Failure[];
  readonly timeline: SectionTime[];
}

/** A target that could not run at all: it (or mcp-hub) did not start, or every call failed. */
export function targetFailures(run: UpstreamRun): Failure[] {
  const section = `${run.upstream}`;
  const latency = (run.latency ?? []).flatMap((result) => {
    if (result.failure !== undefined)
      return [{ section: `${section} latency`, message: `${result.target}: ${result.failure}` }];
    return result.calls > 0 && result.errors === result.calls
      ? [{ section: `${section} latency`, message: `${result.target}: every call failed` }]
      : [];
  });
  const throughput = (run.throughput ?? []).flatMap((result) =>
    result.failure === undefined
      ? []
      : [{ section: `${section} throughput`, message: `${result.target}: ${result.failure}` }],
  );
  const capacity = (run.capacity ?? []).flatMap((result) =>
    result.failure === undefined
      ? []
      : [{ section: `${section} capacity`, message: `${result.target}: ${result.failure}` }],
  );
  const { failure } = run.mcpHub;
  const hub = failure === undefined ? [] : [{ section: `${section} mcp-hub`, message: failure }];
  return [...latency, ...throughput, ...capacity, ...hub];
}
