/**
 * One upstream measured through every target: its HTTP server, a daemon for each Coffer
 * target and mcp-hub (when installed) are started serving it, the targets are measured
 * (latency, then throughput, then capacity from a raw load generator), everything is
 * stopped.
 */
import {
  capacityTargets,
  measureCapacity,
  type CapacityProfile,
  type CapacityResult,
} from './capacity.js';
import { cpuProfArgs, startDaemon, type BenchDaemon, type StdioServer } from './daemon.js';
import {
  measureLatency,
  relativeToStdio,
  type LatencyProfile,
  type TargetLatency,
} from './latency.js';
import { mcpHubVersion, startMcpHub, type McpHub } from './mcp-hub.js';
import { measureThroughput, type TargetThroughput, type ThroughputProfile } from './throughput.js';
import {
  createTargets,
  LATENCY_ONLY,
  remoteServerName,
  sharedServerName,
  THROUGHPUT_ONLY,
} from './targets.js';
import type { HttpUpstream, UpstreamSpec } from './upstreams.js';

export interface UpstreamRun {
  readonly upstream: UpstreamSpec['id'];
  readonly label: string;
  readonly mcpHub: McpHubStatus;
  readonly latency?: TargetLatency[];
  readonly throughput?: TargetThroughput[];
  /** calls/s from a raw load generator (bench/capacity.ts). */
  readonly capacity?: CapacityResult[];
}

/** mcp-hub in this run: its version (undefined: not installed), or why it did not start. */
export interface McpHubStatus {
  readonly version: string | undefined;
  readonly failure?: string;
}

export interface SuitePlan {
  readonly latency?: LatencyProfile | undefined;
  readonly throughput?: ThroughputProfile | undefined;
  readonly capacity?: CapacityProfile | undefined;
  readonly cpuProfDir: string | undefined;
}

export async function runUpstreamSuite(
  upstream: UpstreamSpec,
  plan: SuitePlan,
  log: (line: string) => void,
): Promise<UpstreamRun> {
  const relays = await startRelays(upstream, plan.cpuProfDir);
  try {
    const shimNodeArgs = cpuProfArgs(plan.cpuProfDir);
    const setup = { upstream, ...relays, shimNodeArgs };
    const targets = createTargets(setup);
    let latency: TargetLatency[] | undefined;
    if (plan.latency !== undefined) {
      log(`latency: ${upstream.label}`);
      const timed = targets.filter((target) => !THROUGHPUT_ONLY.has(target.id));
      latency = relativeToStdio(await measureLatency(timed, plan.latency));
    }
    let throughput: TargetThroughput[] | undefined;
    if (plan.throughput !== undefined) {
      log(`throughput: ${upstream.label}`);
      const loaded = targets.filter((target) => !LATENCY_ONLY.has(target.id));
      throughput = await measureThroughput(loaded, plan.throughput);
    }
    let capacity: CapacityResult[] | undefined;
    if (plan.capacity !== undefined) {
      log(`capacity (raw load generator): ${upstream.label}`);
      capacity = await measureCapacity(capacityTargets(setup), plan.capacity, upstream.arguments);
    }
    return {
      upstream: upstream.id,
      label: upstream.label,
      mcpHub: relays.hubStatus,
      ...(latency === undefined ? {} : { latency }),
      ...(throughput === undefined ? {} : { throughput }),
      ...(capacity === undefined ? {} : { capacity }),
    };
  } finally {
    await relays.stop();
  }
}

interface Relays {
  readonly http: HttpUpstream;
  readonly httpDaemon: BenchDaemon;
  readonly shimDaemon: BenchDaemon;
  readonly hub: McpHub | undefined;
  readonly hubStatus: McpHubStatus;
  stop(): Promise<void>;
}

/** Everything that serves the upstream to the targets; all of it stopped again on failure. */
async function startRelays(
  upstream: UpstreamSpec,
  cpuProfDir: string | undefined,
): Promise<Relays> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async (): Promise<void> => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
  };
  const server = { name: upstream.name, command: upstream.command, args: upstream.args };
  try {
    const http = await upstream.startHttp();
    stops.push(() => http.stop());
    const daemon = async (): Promise<BenchDaemon> => {
      const started = await startDaemon({ cpuProfDir });
      stops.push(() => started.stop());
      await started.addServer(server);
      return started;
    };
    const httpDaemon = await daemon();
    await httpDaemon.addServer({ ...server, name: sharedServerName(server.name), shared: true });
    await httpDaemon.addRemoteServer(remoteServerName(server.name), http.url);
    const shimDaemon = await daemon();
    const { hub, status } = await startHub(server);
    if (hub !== undefined) stops.push(() => hub.stop());
    return { http, httpDaemon, shimDaemon, hub, hubStatus: status, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** mcp-hub when it is installed; a failure to start it leaves its column out, noted. */
async function startHub(server: StdioServer) {
  const version = mcpHubVersion();
  if (version === undefined) return { hub: undefined, status: { version } };
  try {
    return { hub: await startMcpHub([server]), status: { version } };
  } catch (error) {
    return { hub: undefined, status: { version, failure: String(error) } };
  }
}
