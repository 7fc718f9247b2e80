/**
 * SDK clients connected to the fake MCP server, over stdio (the client spawns it) or over
 * Streamable HTTP (to a fixture started with startFixtureHttp). Closing a stdio client also
 * proves the fixture exited by itself and leaked no timers or sockets.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { assertFixtureBuilt, expectProcessGone, FIXTURE_LEAK_MARKER } from './fixture-process.js';
import { fixtureServer } from './running-daemon.js';

export interface ClientOptions {
  readonly capabilities?: ClientCapabilities;
}

export interface StdioFixtureClient {
  readonly client: Client;
  readonly pid: number;
  readonly stderr: () => string;
  /** Closes stdin, then fails unless the fixture exited promptly and cleanly. */
  close(): Promise<void>;
}

export interface HttpFixtureClient {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** Ends the MCP session (HTTP DELETE), then the client. */
  close(): Promise<void>;
}

function newClient(options: ClientOptions): Client {
  return new Client(
    { name: 'fixture-test-client', version: '1.0.0' },
    { capabilities: options.capabilities ?? {} },
  );
}

export interface StdioOptions extends ClientOptions {
  readonly env?: Record<string, string>;
  /** Sees each stderr chunk as it arrives, e.g. to time what the fixture logs. */
  readonly onStderr?: (chunk: string) => void;
}

export async function connectFixtureStdio(
  args: readonly string[] = [],
  options: StdioOptions = {},
): Promise<StdioFixtureClient> {
  assertFixtureBuilt();
  const params: StdioServerParameters = {
    command: process.execPath,
    args: [fixtureServer, ...args],
    stderr: 'pipe',
    ...(options.env ? { env: options.env } : {}),
  };
  const transport = new StdioClientTransport(params);
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
    options.onStderr?.(chunk.toString('utf8'));
  });
  const client = newClient(options);
  await client.connect(transport);
  const pid = transport.pid!;
  return {
    client,
    pid,
    stderr: () => log,
    async close() {
      await client.close();
      await expectProcessGone(pid);
      if (log.includes(FIXTURE_LEAK_MARKER)) throw new Error(`fixture leaked handles:\n${log}`);
    },
  };
}

export async function connectFixtureHttp(
  url: string,
  options: ClientOptions = {},
): Promise<HttpFixtureClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = newClient(options);
  await client.connect(transport);
  return {
    client,
    transport,
    async close() {
      // The fixture may already be gone (crash tests): ending the session is best effort.
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}
