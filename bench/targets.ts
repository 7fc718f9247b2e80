/**
 * The compared targets: one MCP client session each, opened the way an agent would open it,
 * calling the same upstream tool.
 *   direct-stdio  an SDK client spawning the upstream itself (the floor)
 *   direct-http   an SDK client on the upstream's own Streamable HTTP server
 *   coffer-http   an SDK client on Coffer's /mcp (Bearer token)
 *   coffer-shim   an SDK client spawning `coffer shim` (stdio, as agents run it)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { cofferBin, type BenchDaemon } from './daemon.js';
import { adopt, ownSession } from './processes.js';
import type { HttpUpstream, UpstreamSpec } from './upstreams.js';

export type TargetId = 'direct-stdio' | 'direct-http' | 'coffer-http' | 'coffer-shim';

export const TARGET_LABELS: Readonly<Record<TargetId, string>> = {
  'direct-stdio': 'direct stdio',
  'direct-http': 'direct Streamable HTTP',
  'coffer-http': 'Coffer /mcp (HTTP)',
  'coffer-shim': 'Coffer via `coffer shim`',
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
  close(): Promise<void>;
}

export interface Target {
  readonly id: TargetId;
  open(): Promise<BenchSession>;
}

export interface TargetSetup {
  readonly upstream: UpstreamSpec;
  readonly http: HttpUpstream;
  readonly daemon: BenchDaemon;
  /** Node flags for the shims (e.g. --cpu-prof, which NODE_OPTIONS does not allow). */
  readonly shimNodeArgs?: readonly string[];
}

export function createTargets(setup: TargetSetup): Target[] {
  const { upstream, http, daemon } = setup;
  const direct = upstream.tool;
  const routed = `${upstream.name}__${upstream.tool}`;
  return [
    target('direct-stdio', direct, () => stdioTransport(upstream.command, upstream.args)),
    target('direct-http', direct, () => new StreamableHTTPClientTransport(new URL(http.url))),
    target('coffer-http', routed, () => cofferHttpTransport(daemon)),
    target('coffer-shim', routed, () =>
      stdioTransport(
        process.execPath,
        [...(setup.shimNodeArgs ?? []), cofferBin, 'shim'],
        daemon.env,
      ),
    ),
  ].map((make) => make(upstream.arguments));
}

export function cofferHttpTransport(daemon: BenchDaemon, path = '/mcp'): Transport {
  return new StreamableHTTPClientTransport(new URL(daemon.url + path), {
    requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
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

function target(id: TargetId, tool: string, transport: () => Transport) {
  return (args: Readonly<Record<string, unknown>>): Target => ({
    id,
    open: () => openSession(transport(), tool, args),
  });
}

/** Connects (initialize + initialized) and returns the session's call and list. */
export async function openSession(
  transport: Transport,
  tool: string,
  args: Readonly<Record<string, unknown>> = {},
): Promise<BenchSession> {
  const client = new Client({ name: 'coffer-bench', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  if (transport instanceof StdioClientTransport && transport.pid !== null) adopt(transport.pid);
  const params = { name: tool, arguments: { ...args } };
  return {
    client,
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
