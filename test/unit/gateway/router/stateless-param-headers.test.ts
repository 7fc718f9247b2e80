import { afterEach, describe, expect, it } from 'vitest';
import type { ServerRecord } from '../../../../src/domain/server-definition.js';
import type { UpstreamConnectContext } from '../../../../src/domain/ports.js';
import type { ServerDefinition } from '../../../../src/domain/server-definition.js';
import { paramHeaderRejection } from '../../../../src/gateway/era-classification.js';
import { StatelessService } from '../../../../src/gateway/stateless-service.js';
import { fakeServer } from '../gateway-fakes.js';
import { FakeConnector, FakeUpstream, type Script } from './fake-upstream.js';
import { fakeGatewayContext } from './session-harness.js';
import { Channel } from './stateless-channel.js';

const region = { type: 'string', 'x-mcp-header': 'Region' };
const deploy = { name: 'deploy', inputSchema: { type: 'object', properties: { region } } };
/** Two properties declare the same header: a Streamable HTTP client must exclude it. */
const broken = {
  name: 'broken',
  inputSchema: { type: 'object', properties: { a: region, b: { ...region } } },
};
const script: Script = {
  'tools/list': () => ({ tools: [deploy, broken] }),
  'tools/call': (params) => ({ content: [{ type: 'text', text: String(params?.['name']) }] }),
};

/** A 2026-07-28 upstream, as the SDK connector reports one. */
class ModernUpstream extends FakeUpstream {
  readonly protocolVersion = '2026-07-28';
}

class ModernConnector extends FakeConnector {
  override connect(definition: ServerDefinition, context: UpstreamConnectContext) {
    const upstream = new ModernUpstream(definition.name, context, script);
    this.connections.push(upstream);
    return Promise.resolve(upstream);
  }
}

const started: StatelessService[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((service) => service.close()));
});

/** An aggregated stateless service over one modern upstream `fx` reached by `transport`. */
function serviceOver(transport: 'http' | 'stdio'): StatelessService {
  const server = { ...fakeServer('fx'), transport, url: 'http://127.0.0.1:9/mcp' };
  const { context } = fakeGatewayContext(
    { fx: script },
    {
      connector: new ModernConnector({}),
      enabledServers: () => Promise.resolve([server as ServerRecord]),
    },
  );
  const service = new StatelessService({ context, scope: { kind: 'aggregated' } });
  started.push(service);
  return service;
}

/** The upstream's tools a tools/list answer names (Coffer's own left out). */
const upstreamTools = (result: unknown) =>
  (result as { tools: { name: string }[] }).tools
    .map((tool) => tool.name)
    .filter((name) => name.startsWith('fx__'));

const headers =
  (sent: Record<string, string>) =>
  (name: string): string | undefined =>
    sent[name.toLowerCase()];

describe('Mcp-Param-* headers on the 2026-07-28 HTTP edge', () => {
  it('checks a call against the declarations the listed (renamed) tool keeps', async () => {
    const service = serviceOver('stdio');
    const channel = new Channel(service);
    channel.request(1, 'tools/list');
    const listed = (await channel.answer(1))['result'] as { tools: { name: string }[] };
    expect(listed.tools).toContainEqual(
      expect.objectContaining({ name: 'fx__deploy', inputSchema: deploy.inputSchema }),
    );
    const schema = await service.toolInputSchema('fx__deploy');
    const call = { name: 'fx__deploy', arguments: { region: 'eu-west-1' } };
    expect(paramHeaderRejection(call, schema, headers({ region: 'eu-west-1' }))).toBeUndefined();
    expect(paramHeaderRejection(call, schema, headers({}))).toEqual({
      era: 'rejected',
      status: 400,
      error: {
        code: -32020,
        message:
          'Bad Request: the request headers and body disagree: the body carries region="eu-west-1" but the Mcp-Param-Region header is absent; send Mcp-Param-Region: eu-west-1',
        data: { mismatch: expect.objectContaining({ header: 'Mcp-Param-Region' }) as unknown },
      },
    });
    expect(paramHeaderRejection(call, schema, headers({ region: 'us-east-1' }))?.error.code).toBe(
      -32020,
    );
    // Coffer's own tools and unknown names have nothing to check.
    expect(await service.toolInputSchema('fx__nothing')).toBeUndefined();
  });

  it('relays a call that came without headers on a channel that has none (the shim)', async () => {
    const channel = new Channel(serviceOver('stdio'));
    channel.request(1, 'tools/call', { name: 'fx__deploy', arguments: { region: 'eu' } });
    expect((await channel.answer(1))['result']).toMatchObject({
      content: [{ type: 'text', text: 'deploy' }],
    });
  });

  it('leaves out and refuses the invalid tools of a 2026-07-28 HTTP upstream', async () => {
    const channel = new Channel(serviceOver('http'));
    channel.request(1, 'tools/list');
    expect(upstreamTools((await channel.answer(1))['result'])).toEqual(['fx__deploy']);
    channel.request(2, 'tools/call', { name: 'fx__broken', arguments: { a: 'x' } });
    const { error } = (await channel.answer(2)) as { error: { message: string; data: object } };
    expect(error.message).toContain(
      'Tool "broken" of fx is not offered: it declares an invalid x-mcp-header (x-mcp-header \'Region\' is not case-insensitively unique',
    );
    expect(error.message).toContain('ask the author of fx');
    expect(error.data).toMatchObject({ coffer_code: 'CAPABILITY_NOT_FOUND', server: 'fx' });
  });

  it('lists such a tool from a stdio upstream, which no client sends headers to', async () => {
    const channel = new Channel(serviceOver('stdio'));
    channel.request(1, 'tools/list');
    expect(upstreamTools((await channel.answer(1))['result'])).toEqual([
      'fx__deploy',
      'fx__broken',
    ]);
  });
});
