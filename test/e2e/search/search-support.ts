import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import {
  fixtureServer as fixtureScript,
  type RunningDaemon,
} from '../../support/running-daemon.js';

/** Registers the fixture MCP server (stdio, basic scenario) as `name`. */
export async function addFixture(daemon: RunningDaemon, name: string): Promise<void> {
  const created = await daemon.api('POST', '/servers', {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [fixtureScript, '--scenario', 'basic'],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

/** An SDK client on `/mcp` with a query (`?mode=lean`), which the daemon reads at initialize. */
export async function clientAt(
  daemon: RunningDaemon,
  query: string,
  name: string,
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${daemon.baseUrl}/mcp${query}`), {
    requestInit: { headers: { authorization: `Bearer ${daemon.token}` } },
  });
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return client;
}

export interface FoundTool {
  readonly name: string;
  readonly server: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

/** Calls coffer__search_tools and returns its structured hits. */
export async function searchTools(
  client: Client,
  args: Record<string, unknown>,
): Promise<FoundTool[]> {
  const result = await client.callTool({ name: 'coffer__search_tools', arguments: args });
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  return (result.structuredContent as { tools: FoundTool[] }).tools;
}

export async function setToolEnabled(
  daemon: RunningDaemon,
  server: string,
  key: string,
  enabled: boolean,
): Promise<void> {
  const toggled = await daemon.api('POST', `/servers/${server}/capabilities`, {
    type: 'tool',
    keys: [key],
    enabled,
  });
  expect(toggled.status).toBe(200);
}

/** The JSON-RPC error a call ends with (McpError), or fails the test. */
export async function rpcError(call: Promise<unknown>): Promise<McpError> {
  const outcome = await call.then(
    (result) => result,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(McpError);
  return outcome as McpError;
}
