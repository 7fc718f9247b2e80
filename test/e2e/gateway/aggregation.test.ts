import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as SdkClient, type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { toolsOnceListed } from '../../support/listed-tools.js';
import { addEverything, everythingServer } from '../../support/everything-server.js';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../../support/running-daemon.js';

const loose = z.looseObject({});

/**
 * The gateway's promise, end to end over real processes: three real upstreams (the
 * fixture over stdio, the fixture over Streamable HTTP, server-everything) served
 * through one `/mcp`, with names, routing, verbatim relay and preferences.
 */
describe('aggregated /mcp over real upstreams', () => {
  let daemon: RunningDaemon;
  let httpFixture: { close(): Promise<void>; url: string };
  let client: Client;

  beforeAll(async () => {
    daemon = await startDaemon();
    const { startFixtureHttp } = await import('../../support/fixture-process.js');
    httpFixture = await startFixtureHttp(['--scenario', 'basic', '--name', 'remote']);
    await register(daemon, {
      name: 'fixture',
      transport: 'stdio',
      command: process.execPath,
      args: [fixture],
    });
    await register(daemon, { name: 'remote', transport: 'http', url: httpFixture.url });
    await addEverything(daemon);
    client = await daemon.client();
  });

  afterAll(async () => {
    await daemon?.stop();
    await httpFixture?.close();
  });

  it('lists every upstream tool under <server>__<name>', async () => {
    // The first list starts the upstreams: one slower than the list deadline on a busy
    // machine is listed once it arrives (list_changed), as an agent would see it.
    const names = await toolsOnceListed(client, [
      'everything__echo',
      'fixture__echo',
      'remote__echo',
    ]);
    // coffer__search_tools is Coffer's own (issue 9); every other name is prefixed.
    expect(names.every((name) => /^(fixture|remote|everything|coffer)__/.test(name))).toBe(true);
  });

  it('calls tools on each upstream and relays the result verbatim', async () => {
    const viaStdio = await client.request(
      { method: 'tools/call', params: { name: 'fixture__echo', arguments: { hello: 'stdio' } } },
      loose,
    );
    expect(JSON.stringify(viaStdio['content'])).toContain('stdio');
    // Fields the SDK's typed helpers would strip survive the relay.
    expect(viaStdio).toHaveProperty('extra_field');
    const viaHttp = await client.callTool({ name: 'remote__echo', arguments: { hello: 'http' } });
    expect(JSON.stringify(viaHttp.content)).toContain('http');
    const echoed = await client.callTool({
      name: 'everything__echo',
      arguments: { message: 'hi there' },
    });
    expect(JSON.stringify(echoed.content)).toContain('hi there');
  });

  it('keeps tool definition fields (title, annotations) intact', async () => {
    const { tools } = await client.listTools();
    const echo = tools.find((tool) => tool.name === 'fixture__echo');
    expect(echo?.annotations).toBeDefined();
    expect(echo?.title).toBeDefined();
  });

  it('reads a resource through its coffer:// URI', async () => {
    const uri = 'coffer://everything/demo://resource/static/document/architecture.md';
    const result = await client.readResource({ uri });
    expect(result.contents[0]?.uri).toBe(uri);
    expect(JSON.stringify(result.contents)).toMatch(/\w+/);
    const { resources } = await client.listResources();
    expect(resources.some((r) => r.uri.startsWith('coffer://fixture/'))).toBe(true);
  });

  it('gets and completes prompts by their prefixed names', async () => {
    const prompt = await client.getPrompt({ name: 'everything__simple-prompt' });
    expect(prompt.messages.length).toBeGreaterThan(0);
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'everything__completable-prompt' },
      argument: { name: 'department', value: 'E' },
    });
    expect(completion.completion.values.length).toBeGreaterThan(0);
  });

  it('relays upstream JSON-RPC errors exactly as a direct client sees them', async () => {
    // args-prompt requires "city": the upstream answers invalid-params itself.
    const request = { name: 'args-prompt', arguments: {} };
    const direct = await withDirectClient(everythingServer, (c) =>
      c.getPrompt(request).catch((e: unknown) => e),
    );
    const relayed = await client
      .getPrompt({ ...request, name: 'everything__args-prompt' })
      .catch((e: unknown) => e);
    expect(relayed).toBeInstanceOf(McpError);
    expect(direct).toBeInstanceOf(McpError);
    expect((relayed as McpError).code).toBe((direct as McpError).code);
    expect((relayed as McpError).message).toBe((direct as McpError).message);
    expect((relayed as McpError).data).toEqual((direct as McpError).data);
  });

  it('names an unknown tool in an invalid-params error', async () => {
    const error = await client
      .callTool({ name: 'fixture__nope', arguments: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toContain('fixture__nope');
  });

  it('hides and refuses a disabled tool, for live sessions at once', async () => {
    const toggled = await daemon.api('POST', '/servers/fixture/capabilities', {
      type: 'tool',
      keys: ['echo'],
      enabled: false,
    });
    expect(toggled.status).toBe(200);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('fixture__echo');
    expect(tools.map((t) => t.name)).toContain('remote__echo');
    const error = await client
      .callTool({ name: 'fixture__echo', arguments: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain('disabled');
    expect((error as McpError).data).toMatchObject({ coffer_code: 'TOOL_DISABLED' });
    await daemon.api('POST', '/servers/fixture/capabilities', {
      type: 'tool',
      keys: ['echo'],
      enabled: true,
    });
    const after = await client.listTools();
    expect(after.tools.map((t) => t.name)).toContain('fixture__echo');
  });

  it('serves one upstream under its original names on /servers/<name>/mcp', async () => {
    const single = await daemon.client({ server: 'everything' });
    const { tools } = await single.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(tools.every((t) => !t.name.includes('__'))).toBe(true);
    const result = await single.callTool({ name: 'echo', arguments: { message: 'direct' } });
    expect(JSON.stringify(result.content)).toContain('direct');
    const read = await single.readResource({
      uri: 'demo://resource/static/document/architecture.md',
    });
    expect(read.contents[0]?.uri).toBe('demo://resource/static/document/architecture.md');
  });

  it('refuses a disabled tool on the single-server endpoint too', async () => {
    await daemon.api('POST', '/servers/everything/capabilities', {
      type: 'tool',
      keys: ['echo'],
      enabled: false,
    });
    const single = await daemon.client({ server: 'everything' });
    const { tools } = await single.listTools();
    expect(tools.map((t) => t.name)).not.toContain('echo');
    const error = await single
      .callTool({ name: 'echo', arguments: { message: 'x' } })
      .catch((e: unknown) => e);
    expect((error as McpError).data).toMatchObject({ coffer_code: 'TOOL_DISABLED' });
    await daemon.api('POST', '/servers/everything/capabilities', {
      type: 'tool',
      keys: ['echo'],
      enabled: true,
    });
  });
});

async function withDirectClient<T>(
  script: string,
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const direct = new SdkClient({ name: 'direct', version: '1.0.0' });
  await direct.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [script, 'stdio'],
      stderr: 'ignore',
    }),
  );
  try {
    return await use(direct);
  } finally {
    await direct.close();
  }
}

async function register(daemon: RunningDaemon, definition: Record<string, unknown>): Promise<void> {
  const response = await daemon.api('POST', '/servers', definition);
  if (response.status !== 201) throw new Error(`register failed: ${JSON.stringify(response.body)}`);
}
