import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { runCoffer } from '../secrets/run-coffer.js';
import {
  addFixture,
  clientAt,
  rpcError,
  searchTools,
  setToolEnabled,
  type FoundTool,
} from './search-support.js';
import { toolsOnceListed } from '../../support/listed-tools.js';

const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

/**
 * coffer__search_tools through the real daemon (issue 9): listed in every aggregated
 * session, ranks that session's enabled tools, follows preference changes at once, and
 * a disabled tool is neither found nor callable, through MCP, the REST API and the CLI.
 */
describe('coffer__search_tools through the real daemon', () => {
  let daemon: RunningDaemon;
  let client: Client;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'fixture');
    client = await daemon.client({ name: 'search-e2e' });
  });

  afterAll(() => daemon?.stop());

  it('is listed next to the upstream tools, with a description that says when to use it', async () => {
    await toolsOnceListed(client, ['fixture__echo']);
    const { tools } = await client.listTools();
    const search = tools.find((tool) => tool.name === 'coffer__search_tools');
    expect(search?.description).toMatch(/no tool you can see obviously fits/);
    expect(search?.inputSchema.required).toEqual(['query']);
    expect(names(tools)).not.toContain('coffer__call_tool');
  });

  it('finds a tool by what it does, with its callable name and input schema', async () => {
    const found = await searchTools(client, { query: 'send progress notifications', limit: 3 });
    expect(found[0]).toMatchObject({ name: 'fixture__progress', server: 'fixture' });
    expect(found[0]?.inputSchema).toMatchObject({ type: 'object', properties: { count: {} } });
    expect(found.length).toBeLessThanOrEqual(3);
    const onServer = await searchTools(client, { query: 'echo', server: 'nope' });
    expect(onServer).toEqual([]);
  });

  it('drops a disabled tool at once, refuses it through coffer__call_tool, and finds it again', async () => {
    const echoFound = async () =>
      names(await searchTools(client, { query: 'returns its arguments as JSON text' }));
    expect(await echoFound()).toContain('fixture__echo');

    await setToolEnabled(daemon, 'fixture', 'echo', false);
    expect(await echoFound()).not.toContain('fixture__echo');
    const refused = await rpcError(
      client.callTool({
        name: 'coffer__call_tool',
        arguments: { name: 'fixture__echo', arguments: { message: 'x' } },
      }),
    );
    expect(refused.message).toContain('disabled');
    expect(refused.data).toMatchObject({ coffer_code: 'TOOL_DISABLED' });
    const rest = await daemon.api('GET', '/tools/search?q=returns%20its%20arguments');
    expect(rest.status).toBe(200);
    expect(names(rest.body.tools as FoundTool[])).not.toContain('fixture__echo');

    await setToolEnabled(daemon, 'fixture', 'echo', true);
    expect(await echoFound()).toContain('fixture__echo');
  });

  it('serves the same ranking over REST and `coffer tools search`', async () => {
    const rest = await daemon.api('GET', '/tools/search?q=send%20progress%20notifications&limit=2');
    expect(rest.body).toMatchObject({ query: 'send progress notifications', unavailable: [] });
    expect(rest.body.tools[0]).toMatchObject({
      name: 'fixture__progress',
      server: 'fixture',
      tool: 'progress',
    });
    const run = await runCoffer(daemon.env, ['tools', 'search', 'send progress notifications']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^1\. fixture__progress \(fixture\)\n/);
    const json = await runCoffer(daemon.env, ['tools', 'search', 'echo', '--json', '--limit', '1']);
    expect(JSON.parse(json.stdout).tools).toHaveLength(1);
  });

  it('leaves the single-server endpoint a mirror of its upstream', async () => {
    const single = await daemon.client({ server: 'fixture' });
    expect(names((await single.listTools()).tools)).not.toContain('coffer__search_tools');
    const lean = await fetch(`${daemon.baseUrl}/servers/fixture/mcp?mode=lean`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${daemon.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(initialize),
    });
    expect(lean.status).toBe(400);
  });

  it('reserves the server name "coffer" for its own tools', async () => {
    const created = await daemon.api('POST', '/servers', {
      name: 'coffer',
      transport: 'stdio',
      command: process.execPath,
    });
    expect(created.status).toBe(400);
    expect(created.body.error.message).toContain("reserved for Coffer's built-in tools");
  });

  it('refuses an unknown mode', async () => {
    const bad = await clientAt(daemon, '?mode=tiny', 'bad-mode').catch((error: unknown) => error);
    expect(String(bad)).toMatch(/-32602.*must be .*full.* or .*lean.*, not .*tiny/);
  });
});

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1.0.0' },
  },
};
