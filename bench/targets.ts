/**
 * The compared targets: one MCP client session each, opened the way an agent would open it,
 * calling the same upstream tool.
 *   direct-stdio  an SDK client spawning the upstream itself (the floor)
 *   direct-http   an SDK client on the upstream's own Streamable HTTP server
 *   coffer-http   an SDK client on Coffer's /mcp (Bearer token)
 *   coffer-http-shared  the same, on a copy of the upstream registered `shared` (opt-in:
 *                 one upstream process for every session, as mcp-hub runs it); measured
 *                 for throughput only, where sessions are many
 *   coffer-http-remote  the same, on the upstream registered by its Streamable HTTP URL
 *                 (the one direct-http talks to): Coffer as the client of a remote server
 *   coffer-shim   an SDK client spawning `coffer shim` (stdio, as agents run it)
 *   relay-floor   an SDK client spawning the upstream behind two byte-copying Node relays
 *                 (byte-relay.ts): the two hops of the shim path with no gateway work in
 *                 them, the floor the shim's ratio to direct stdio is read against;
 *                 measured for latency only
 *   mcp-hub       an SDK client on mcp-hub's unified endpoint (HTTP+SSE), when installed
 * The two Coffer targets have a daemon each, so that each daemon's CPU and memory belong to
 * one target: the "relay" process measured beside the calls (mcp-hub's is its own process).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { z } from 'zod';
// Every HTTP target's SDK transport gets Coffer's remedy for the SDK's one signal per
// transport (src/upstream/request-signal.ts): without it each call costs the bench's client
// more than the one before, and past 1,500 calls it prints a warning per call, so the
// HTTP figures would grow with the length of the run.
import { withOwnSignals } from '../src/upstream/request-signal.js';
import { cofferBin, type BenchDaemon } from './daemon.js';
import type { McpHub } from './mcp-hub.js';
import { adopt, ownSession } from './processes.js';
import type { HttpUpstream, UpstreamSpec } from './upstreams.js';

export type TargetId =
  | 'direct-stdio'
  | 'direct-http'
  | 'coffer-http'
  | 'coffer-http-shared'
  | 'coffer-http-remote'
  | 'coffer-shim'
  | 'relay-floor'
  | 'mcp-hub';

export const TARGET_LABELS: Readonly<Record<TargetId, string>> = {
  'direct-stdio': 'direct stdio',
  'direct-http': 'direct Streamable HTTP',
  'coffer-http': 'Coffer /mcp (HTTP)',
  'coffer-http-shared': 'Coffer /mcp, upstream shared (opt-in)',
  'coffer-http-remote': 'Coffer /mcp, upstream over Streamable HTTP',
  'coffer-shim': 'Coffer via `coffer shim`',
  'relay-floor': 'two byte-copying Node relays (floor)',
  'mcp-hub': 'mcp-hub /mcp (HTTP+SSE)',
};

export interface BenchSession {
  /** One tools/call; resolves true when it succeeded (no JSON-RPC error, no isError). */
  call(): Promise<boolean>;
  /**
   * tools/list, every page; resolves with the tools' names. Only names are validated, so the
   * figure is the transport and the server, not the client's schema checks of 1,000 tools.
   */
  listTools(): Promise<string[]>;
  readonly client: Client;
  /** The process a stdio session spawned (the upstream, or `coffer shim`). */
  readonly pid: number | undefined;
  close(): Promise<void>;
}

export interface Target {
  readonly id: TargetId;
  /** The process relaying this target's calls (Coffer's daemon, mcp-hub), if any. */
  readonly relayPid: number | undefined;
  /** Whether each session's own process is a shim (its CPU is then measured too). */
  readonly shimmed: boolean;
  /** Whether each session starts an upstream process of its own (warmed up before use). */
  readonly ownUpstream: boolean;
  open(): Promise<BenchSession>;
}

export interface TargetSetup {
  readonly upstream: UpstreamSpec;
  readonly http: HttpUpstream;
  /** The daemon behind coffer-http. */
  readonly httpDaemon: BenchDaemon;
  /** The daemon behind coffer-shim. */
  readonly shimDaemon: BenchDaemon;
  /** Left out when mcp-hub is not installed. */
  readonly hub?: McpHub | undefined;
  /** Node flags for the shims (e.g. --cpu-prof, which NODE_OPTIONS does not allow). */
  readonly shimNodeArgs?: readonly string[];
}

export function createTargets(setup: TargetSetup): Target[] {
  const { upstream, http, httpDaemon, shimDaemon, hub } = setup;
  const direct = upstream.tool;
  const routed = `${upstream.name}__${upstream.tool}`;
  const args = upstream.arguments;
  const shimArgs = [...(setup.shimNodeArgs ?? []), cofferBin, 'shim'];
  const targets: Target[] = [
    target('direct-stdio', direct, args, () => stdioTransport(upstream.command, upstream.args)),
    target(
      'direct-http',
      direct,
      args,
      () => new StreamableHTTPClientTransport(new URL(http.url), { fetch: withOwnSignals() }),
    ),
    // The three /mcp targets: one daemon, the upstream registered three ways.
    ...(
      [
        ['coffer-http', routed],
        ['coffer-http-shared', `${sharedServerName(upstream.name)}__${direct}`],
        ['coffer-http-remote', `${remoteServerName(upstream.name)}__${direct}`],
      ] as const
    ).map(([id, tool]) =>
      target(id, tool, args, () => cofferHttpTransport(httpDaemon), { relayPid: httpDaemon.pid }),
    ),
    target(
      'coffer-shim',
      routed,
      args,
      () => stdioTransport(process.execPath, shimArgs, shimDaemon.env),
      {
        relayPid: shimDaemon.pid,
        shimmed: true,
      },
    ),
    target('relay-floor', direct, args, () =>
      stdioTransport(process.execPath, [
        BYTE_RELAY,
        process.execPath,
        BYTE_RELAY,
        upstream.command,
        ...upstream.args,
      ]),
    ),
  ];
  if (hub !== undefined) {
    const hubTransport = () =>
      new SSEClientTransport(new URL(hub.url), { fetch: withOwnSignals() });
    targets.push(target('mcp-hub', routed, args, hubTransport, { relayPid: hub.pid }));
  }
  return targets;
}

/** Targets whose every session starts its own upstream process (ADR-005, or direct). */
const OWN_UPSTREAM: ReadonlySet<TargetId> = new Set([
  'direct-stdio',
  'coffer-http',
  'coffer-shim',
  'relay-floor',
]);

/** The name the /mcp daemon gives its `shared` copy of the upstream. */
export function sharedServerName(name: string): string {
  return `${name}-shared`;
}

/** The name the /mcp daemon gives the upstream registered by its HTTP URL. */
export function remoteServerName(name: string): string {
  return `${name}-remote`;
}

/** Targets whose figure is throughput only (one session is the same as its sibling's). */
export const THROUGHPUT_ONLY: ReadonlySet<TargetId> = new Set(['coffer-http-shared']);

/** Targets whose figure is latency only (a floor for one session, not a relay to load). */
export const LATENCY_ONLY: ReadonlySet<TargetId> = new Set(['relay-floor']);

const BYTE_RELAY = join(import.meta.dirname, 'byte-relay.js');

export function cofferHttpTransport(daemon: BenchDaemon, path = '/mcp'): Transport {
  return new StreamableHTTPClientTransport(new URL(daemon.url + path), {
    requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
    fetch: withOwnSignals(),
  });
}

export function stdioTransport(
  command: string,
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
): StdioClientTransport {
  const clean = Object.fromEntries(
    Object.entries(env ?? process.env).filter((entry): entry is [string, string] => !!entry[1]),
  );
  const line = ownSession(command, args);
  return new StdioClientTransport({ ...line, args: [...line.args], env: clean, stderr: 'ignore' });
}

function target(
  id: TargetId,
  tool: string,
  args: Readonly<Record<string, unknown>>,
  transport: () => Transport,
  relay: { relayPid?: number; shimmed?: boolean } = {},
): Target {
  return {
    id,
    relayPid: relay.relayPid,
    shimmed: relay.shimmed ?? false,
    ownUpstream: OWN_UPSTREAM.has(id),
    open: () => openSession(transport(), tool, args),
  };
}

/** Connects (initialize + initialized) and returns the session's call and list. */
export async function openSession(
  transport: Transport,
  tool: string,
  args: Readonly<Record<string, unknown>> = {},
): Promise<BenchSession> {
  const client = new Client({ name: 'coffer-bench', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  const pid = transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
  if (pid !== undefined) adopt(pid);
  const params = { name: tool, arguments: { ...args } };
  return {
    client,
    pid,
    async call() {
      const result = await client.request({ method: 'tools/call', params }, CallToolResultSchema);
      return result.isError !== true;
    },
    async listTools() {
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.request(
          { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
          LooseToolPage,
        );
        names.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return names;
    },
    async close() {
      // The SDK's close() does not end an HTTP session: DELETE it, or Coffer keeps it
      // (and its upstream processes) until the idle reaper.
      if (transport instanceof StreamableHTTPClientTransport) {
        await transport.terminateSession().catch(() => undefined);
      }
      await client.close();
    },
  };
}

const LooseToolPage = z.looseObject({
  tools: z.array(z.looseObject({ name: z.string() })),
  nextCursor: z.string().optional(),
});

/** One call that counts a thrown error like a failed result. */
export function safeCall(session: BenchSession): Promise<boolean> {
  return session.call().catch(() => false);
}
