import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { cofferBin, type RunningDaemon } from './running-daemon.js';

/** A way into Coffer: an HTTP endpoint, or `coffer shim` on stdio. */
export type ClientPath = '/mcp' | `/servers/${string}/mcp` | 'shim';

/** An SDK v2 client transport to the daemon through `path`. */
export function transportV2(
  daemon: RunningDaemon,
  path: ClientPath,
): StdioClientTransport | StreamableHTTPClientTransport {
  if (path === 'shim')
    return new StdioClientTransport({
      command: process.execPath,
      args: [cofferBin, 'shim'],
      env: stringEnv(daemon.env),
    });
  return new StreamableHTTPClientTransport(new URL(`${daemon.baseUrl}${path}`), {
    requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
  });
}

/** The environment as a child process takes it: only the variables that are set. */
export function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** A real SDK v2 client pinned to 2026-07-28, connected through `path`. */
export async function pinnedClient(
  daemon: RunningDaemon,
  path: ClientPath,
  name: string,
): Promise<Client> {
  const client = new Client(
    { name, version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transportV2(daemon, path));
  return client;
}
