import { describe, expect, it } from 'vitest';
import { modernHttpFetch } from '../../../src/upstream/modern-http-fetch.js';
import { ParamHeaderTable } from '../../../src/upstream/param-headers.js';

const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };

const tool = {
  name: 'deploy',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      target: {
        type: 'object',
        properties: { replicas: { type: 'integer', 'x-mcp-header': 'Replicas' } },
      },
      dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
    },
  },
};

describe('Mcp-Param headers (2026-07-28 x-mcp-header)', () => {
  it('sends nothing for a tool whose declarations are invalid (it is not to be called)', () => {
    const table = new ParamHeaderTable();
    const broken = {
      name: 'broken',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          zone: { type: 'string', 'x-mcp-header': 'region' },
        },
      },
    };
    table.learn({ tools: [broken] });
    expect(table.headersFor('broken', { region: 'eu', zone: 'a' })).toEqual({});
  });

  it('builds one header per primitive argument given, encoding what is no plain text', () => {
    const table = new ParamHeaderTable();
    table.learn({ tools: [tool, { name: 'plain', inputSchema: { type: 'object' } }] });
    expect(
      table.headersFor('deploy', { region: 'Zürich', target: { replicas: 3 }, dry: false }),
    ).toEqual({
      'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
      'mcp-param-replicas': '3',
      'mcp-param-dry-run': 'false',
    });
    // Absent, null or not a primitive: no header.
    expect(table.headersFor('deploy', { region: null, target: { replicas: { n: 1 } } })).toEqual(
      {},
    );
    expect(table.headersFor('plain', { region: 'x' })).toEqual({});
  });

  it('forgets a declaration a later list no longer has', () => {
    const table = new ParamHeaderTable();
    table.learn({ tools: [tool] });
    table.learn({ tools: [{ name: 'deploy', inputSchema: { type: 'object' } }] });
    expect(table.headersFor('deploy', { region: 'eu' })).toEqual({});
  });

  it('modernHttpFetch learns them from a tools/list SSE answer and sends them on the call', async () => {
    const seen: Headers[] = [];
    const answers = [
      new Response(
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [tool] } })}\n\n`,
        {
          headers: { 'content-type': 'text/event-stream' },
        },
      ),
      Response.json({ jsonrpc: '2.0', id: 2, result: { content: [] } }),
    ];
    const fetch = modernHttpFetch((_url, init) => {
      seen.push(new Headers(init?.headers));
      return Promise.resolve(answers.shift()!);
    });
    const post = (id: number, method: string, params: object) => ({
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope } }),
    });
    await fetch('u', post(1, 'tools/list', {}));
    await fetch('u', post(2, 'tools/call', { name: 'deploy', arguments: { region: 'eu-west-1' } }));
    expect(seen[1]!.get('mcp-param-region')).toBe('eu-west-1');
    expect(seen[0]!.has('mcp-param-region')).toBe(false);
  });
});
