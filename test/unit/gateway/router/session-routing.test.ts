import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../../src/domain/ports.js';
import { startSession, type Harness } from './session-harness.js';
import type { Script } from './fake-upstream.js';

const echo: Script = {
  'tools/list': () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }),
  'tools/call': (params) => ({
    content: [{ type: 'text', text: JSON.stringify(params?.['arguments']) }],
  }),
};

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.session.close();
  harness = undefined;
});

const names = (answer: JsonObject): string[] =>
  ((answer['result'] as JsonObject)['tools'] as JsonObject[]).map((tool) => tool['name'] as string);

describe('a session routes each request to the upstream that owns it', () => {
  it('answers initialize itself with the aggregated capabilities and the client version chosen', async () => {
    harness = await startSession({ fx: echo });
    const result = await harness.initialize();
    expect(result).toMatchObject({
      protocolVersion: '2025-06-18',
      serverInfo: { name: 'coffer' },
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
    });
    expect(harness.upstreams.connections).toHaveLength(0);
  });

  it('offers its latest version to a client asking for one it does not speak', async () => {
    harness = await startSession({ fx: echo });
    const answer = await harness.client.request(1, 'initialize', {
      protocolVersion: '1999-01-01',
      capabilities: {},
    });
    expect((answer['result'] as JsonObject)['protocolVersion']).not.toBe('1999-01-01');
    const bad = await harness.client.request(2, 'initialize', { capabilities: {} });
    expect(bad['error']).toMatchObject({ code: -32602, data: { coffer_code: 'INVALID_INPUT' } });
  });

  it('lists tools under <server>__<name> and calls the upstream by its own name, arguments verbatim', async () => {
    harness = await startSession({ fx: echo, other: echo });
    await harness.initialize();
    const list = await harness.client.request(2, 'tools/list');
    expect(names(list)).toEqual(['coffer__search_tools', 'fx__echo', 'other__echo']);
    const args = { text: 'hi', nested: { n: 1, list: [true, null] } };
    const call = await harness.client.request(3, 'tools/call', {
      name: 'other__echo',
      arguments: args,
    });
    expect(call['result']).toEqual({ content: [{ type: 'text', text: JSON.stringify(args) }] });
    const [sent] = harness.upstreams.latest('other').calledWith('tools/call');
    expect(sent?.params).toMatchObject({ name: 'echo', arguments: args });
    expect(harness.upstreams.latest('fx').calledWith('tools/call')).toHaveLength(0);
    expect(harness.activity).toEqual([
      expect.objectContaining({
        server: 'other',
        capability_key: 'echo',
        action: 'tools/call',
        outcome: 'ok',
        client_name: 'unit-client',
        client_version: '1.2.3',
        session_id: 'session-1',
      }),
    ]);
  });

  it('refuses a disabled tool with TOOL_DISABLED and the command to enable it, and records the server and tool', async () => {
    harness = await startSession({ fx: echo });
    await harness.initialize();
    harness.preferences.disable('fx', 'tool', 'echo');
    const call = await harness.client.request(2, 'tools/call', { name: 'fx__echo' });
    expect(call['error']).toMatchObject({
      code: -32602,
      data: { coffer_code: 'TOOL_DISABLED', server: 'fx' },
    });
    expect(JSON.stringify(call['error'])).toContain('coffer mcp enable fx --tool echo');
    expect(harness.upstreams.latest('fx').calledWith('tools/call')).toHaveLength(0);
    expect(harness.activity).toEqual([
      expect.objectContaining({
        server: 'fx',
        capability_key: 'echo',
        outcome: 'error',
        error_code: 'TOOL_DISABLED',
      }),
    ]);
  });

  it('refuses a tool of a server switched off with SERVER_DISABLED and the command to switch it on', async () => {
    harness = await startSession(
      { fx: echo },
      { kind: 'aggregated' },
      {
        isDisabled: (server) => Promise.resolve(server === 'off'),
      },
    );
    await harness.initialize();
    const call = await harness.client.request(2, 'tools/call', { name: 'off__echo' });
    expect(call['error']).toMatchObject({
      data: { coffer_code: 'SERVER_DISABLED', server: 'off' },
    });
    expect(JSON.stringify(call['error'])).toContain('coffer mcp enable off');
    const unknown = await harness.client.request(3, 'tools/call', { name: 'ghost__echo' });
    expect(unknown['error']).toMatchObject({ data: { coffer_code: 'CAPABILITY_NOT_FOUND' } });
    expect(harness.activity.map((row) => [row.server, row.error_code])).toEqual([
      ['off', 'SERVER_DISABLED'],
      [null, 'CAPABILITY_NOT_FOUND'],
    ]);
  });

  it('records a call whose tool answered isError as an error, the result relayed as it came', async () => {
    const failing: Script = {
      ...echo,
      'tools/call': () => ({ content: [{ type: 'text', text: 'no such file' }], isError: true }),
    };
    harness = await startSession({ fx: failing });
    await harness.initialize();
    const call = await harness.client.request(2, 'tools/call', { name: 'fx__echo' });
    expect(call['result']).toEqual({
      content: [{ type: 'text', text: 'no such file' }],
      isError: true,
    });
    expect(harness.activity).toEqual([
      expect.objectContaining({
        server: 'fx',
        capability_key: 'echo',
        outcome: 'error',
        error_code: 'TOOL_ERROR',
      }),
    ]);
  });

  it('names the server of an unknown tool on a server it serves, and no server otherwise', async () => {
    harness = await startSession({ fx: echo });
    await harness.initialize();
    await harness.client.request(2, 'tools/call', { name: 'fx__nope' });
    await harness.client.request(3, 'tools/call', { name: 'ghost__echo' });
    expect(harness.activity.map((row) => [row.server, row.capability_key, row.error_code])).toEqual(
      [
        ['fx', 'nope', 'CAPABILITY_NOT_FOUND'],
        [null, 'ghost__echo', 'CAPABILITY_NOT_FOUND'],
      ],
    );
  });

  it('refuses an unknown resource with -32602 naming the URI asked for in data.uri (SEP-2164)', async () => {
    harness = await startSession({ fx: echo });
    await harness.initialize();
    const uri = 'test://nonexistent-resource';
    const read = await harness.client.request(2, 'resources/read', { uri });
    expect(read['error']).toMatchObject({
      code: -32602,
      data: { coffer_code: 'CAPABILITY_NOT_FOUND', uri },
    });
  });

  it('answers ping and unknown methods itself', async () => {
    harness = await startSession({ fx: echo });
    await harness.initialize();
    expect((await harness.client.request(2, 'ping'))['result']).toEqual({});
    expect((await harness.client.request(3, 'resources/unknown'))['error']).toMatchObject({
      code: -32601,
      message: 'Method not found: resources/unknown',
    });
    expect((await harness.client.request(4, 'constructor'))['error']).toMatchObject({
      code: -32601,
    });
  });

  it('keeps original names on the single-server endpoint and mirrors its capabilities', async () => {
    harness = await startSession({ fx: echo }, { kind: 'single', server: 'fx' });
    const result = await harness.initialize();
    expect(result['capabilities']).toEqual({ logging: {}, tools: { listChanged: true } });
    expect(names(await harness.client.request(2, 'tools/list'))).toEqual(['echo']);
    const call = await harness.client.request(3, 'tools/call', {
      name: 'echo',
      arguments: { a: 1 },
    });
    expect(call['result']).toBeDefined();
  });
});
