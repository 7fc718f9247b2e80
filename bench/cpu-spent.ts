/**
 * CPU time spent on a target's calls, per process: the relay (Coffer's daemon or mcp-hub),
 * the shim, the upstream processes behind the relay (summed), and the bench's own client. Read before and after a batch of calls
 * (/proc/<pid>/stat utime + stime for other processes, process.cpuUsage() for the bench);
 * summed over batches and divided by the calls. NaN where a target has no such process.
 */
import { cpuMicros } from './proc-readings.js';

export interface CpuSpent {
  readonly calls: number;
  /** Microseconds over all those calls. */
  readonly relayUs: number;
  readonly shimUs: number;
  readonly clientUs: number;
  /** Summed over the upstream processes probed; NaN when none were asked for. */
  readonly upstreamUs: number;
}

/** Microseconds of CPU per call, by process. */
export interface CpuPerCall {
  readonly relayUs: number;
  readonly shimUs: number;
  readonly clientUs: number;
}

export interface ProbedProcesses {
  readonly relay?: number | undefined;
  readonly shim?: number | undefined;
  /** Processes whose CPU is summed (the upstreams behind a relay); one gone meanwhile counts 0. */
  readonly upstreams?: readonly number[] | undefined;
}

export const NOTHING_SPENT: CpuSpent = {
  calls: 0,
  relayUs: 0,
  shimUs: 0,
  clientUs: 0,
  upstreamUs: 0,
};

/** Starts reading; the returned function ends the batch of `calls` calls. */
export function startCpuProbe(
  pids: ProbedProcesses,
  readCpu: (pid: number) => number = cpuMicros,
): (calls: number) => CpuSpent {
  const read = (pid: number | undefined): number => {
    if (pid === undefined) return Number.NaN;
    try {
      return readCpu(pid);
    } catch {
      return Number.NaN; // the process is gone
    }
  };
  const relay = read(pids.relay);
  const shim = read(pids.shim);
  const upstreams = pids.upstreams?.map(read);
  const client = process.cpuUsage();
  return (calls) => {
    const own = process.cpuUsage(client);
    return {
      calls,
      relayUs: read(pids.relay) - relay,
      shimUs: read(pids.shim) - shim,
      clientUs: own.user + own.system,
      upstreamUs: upstreamsSpent(pids.upstreams, upstreams, read),
    };
  };
}

/** What the upstreams spent since `before` was read: a process gone meanwhile adds nothing. */
function upstreamsSpent(
  pids: readonly number[] | undefined,
  before: readonly number[] | undefined,
  read: (pid: number) => number,
): number {
  if (pids === undefined || before === undefined) return Number.NaN;
  const spent = pids.map((pid, i) => read(pid) - (before[i] ?? Number.NaN));
  return spent.reduce((sum, us) => (Number.isFinite(us) ? sum + us : sum), 0);
}

export function addSpent(a: CpuSpent, b: CpuSpent): CpuSpent {
  return {
    calls: a.calls + b.calls,
    relayUs: a.relayUs + b.relayUs,
    shimUs: a.shimUs + b.shimUs,
    clientUs: a.clientUs + b.clientUs,
    upstreamUs: a.upstreamUs + b.upstreamUs,
  };
}

export function perCall(spent: CpuSpent): CpuPerCall {
  const per = (us: number): number => (spent.calls > 0 ? us / spent.calls : Number.NaN);
  return {
    relayUs: per(spent.relayUs),
    shimUs: per(spent.shimUs),
    clientUs: per(spent.clientUs),
  };
}
