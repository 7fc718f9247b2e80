/**
 * One upstream measured through every target: its HTTP server and a daemon serving it are
 * started, the four targets are measured (latency, then throughput), everything stopped.
 */
import { cpuProfArgs, startDaemon, type BenchDaemon } from './daemon.js';
import {
  measureLatency,
  relativeToStdio,
  type LatencyProfile,
  type TargetLatency,
} from './latency.js';
import { measureThroughput, type TargetThroughput, type ThroughputProfile } from './throughput.js';
import { createTargets } from './targets.js';
import type { HttpUpstream, UpstreamSpec } from './upstreams.js';

export interface UpstreamRun {
  readonly upstream: UpstreamSpec['id'];
  readonly label: string;
  readonly latency?: TargetLatency[];
  readonly throughput?: TargetThroughput[];
}

export interface SuitePlan {
  readonly latency?: LatencyProfile | undefined;
  readonly throughput?: ThroughputProfile | undefined;
  readonly cpuProfDir: string | undefined;
}

export async function runUpstreamSuite(
  upstream: UpstreamSpec,
  plan: SuitePlan,
  log: (line: string) => void,
): Promise<UpstreamRun> {
  let http: HttpUpstream | undefined;
  let daemon: BenchDaemon | undefined;
  try {
    http = await upstream.startHttp();
    daemon = await startDaemon({ cpuProfDir: plan.cpuProfDir });
    await daemon.addServer({ name: upstream.name, command: upstream.command, args: upstream.args });
    const shimNodeArgs = cpuProfArgs(plan.cpuProfDir);
    const targets = createTargets({ upstream, http, daemon, shimNodeArgs });
    let latency: TargetLatency[] | undefined;
    if (plan.latency !== undefined) {
      log(`latency: ${upstream.label}`);
      latency = relativeToStdio(await measureLatency(targets, plan.latency));
    }
    let throughput: TargetThroughput[] | undefined;
    if (plan.throughput !== undefined) {
      log(`throughput: ${upstream.label}`);
      throughput = await measureThroughput(targets, plan.throughput);
    }
    return {
      upstream: upstream.id,
      label: upstream.label,
      ...(latency === undefined ? {} : { latency }),
      ...(throughput === undefined ? {} : { throughput }),
    };
  } finally {
    await daemon?.stop();
    await http?.stop();
  }
}
