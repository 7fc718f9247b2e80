import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';

const VERSION = '2026-07-28';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'wire-test', version: '1' },
};

/** A 2026-07-28 request as a v2 client sends it: envelope in _meta, mirrored in headers. */
function modernRequest(method: string, params: Record<string, unknown> = {}, id: number = 1) {
  return { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope } };
}

function headersFor(method: string, name?: string): Record<string, string> {
  return {
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}

/**
 * The 2026-07-28 wire on /mcp, byte by byte as the spec has it: discover, results with
 * resultType and cache hints, the standard headers, the -32022 error, subscriptions/listen.
 */
describe('2026-07-28 requests on /mcp', () => {
  let daemon: RunningDaemon;

  async function post(body: unknown, headers: Record<string, string>) {
    return fetch(`${daemon.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${daemon.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify(body),
    });
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON-RPC message of any shape
  async function exchange(body: unknown, headers: Record<string, string>): Promise<any> {
    const response = await post(body, headers);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    return { status: response.status, message: JSON.parse(await response.text()) };
  }

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'fixture');
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('answers server/discover with both eras, capabilities and serverInfo', async () => {
    const { status, message } = await exchange(
      modernRequest('server/discover'),
      headersFor('server/discover'),
    );
    expect(status).toBe(200);
    expect(message.result.supportedVersions).toEqual(
      expect.arrayContaining([VERSION, '2025-11-25']),
    );
    expect(message.result.capabilities.tools).toEqual({ listChanged: true });
    expect(message.result.resultType).toBe('complete');
    expect(message.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('coffer');
  });

  it('lists with resultType and cache hints, and calls without any session', async () => {
    const list = await exchange(modernRequest('tools/list'), headersFor('tools/list'));
    expect(list.message.result).toMatchObject({
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
    });
    const tools = list.message.result.tools as { name: string }[];
    expect(tools.map((t) => t.name)).toContain('fixture__echo');
    const params = { name: 'fixture__echo', arguments: { text: 'stateless' } };
    const call = await exchange(
      modernRequest('tools/call', params),
      headersFor('tools/call', 'fixture__echo'),
    );
    expect(call.message.result.resultType).toBe('complete');
    expect(JSON.stringify(call.message.result.content)).toContain('stateless');
  });

  it('refuses an unsupported version with -32022 and what Coffer speaks', async () => {
    const body = modernRequest('tools/list');
    body.params._meta = { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' };
    const { status, message } = await exchange(body, {
      ...headersFor('tools/list'),
      'mcp-protocol-version': '2099-01-01',
    });
    expect(status).toBe(400);
    expect(message.error.code).toBe(-32022);
    expect(message.error.data).toEqual({
      supported: expect.arrayContaining([VERSION, '2025-11-25']),
      requested: '2099-01-01',
    });
  });

  it('refuses headers that disagree with the body with -32020', async () => {
    const missing = await exchange(modernRequest('tools/list'), {});
    expect(missing.status).toBe(400);
    expect(missing.message.error.code).toBe(-32020);
    const params = { name: 'fixture__echo', arguments: {} };
    const wrongName = await exchange(
      modernRequest('tools/call', params),
      headersFor('tools/call', 'other'),
    );
    expect(wrongName.message.error.code).toBe(-32020);
    expect(wrongName.message.error.message).toContain('Mcp-Name');
    // A header naming 2026-07-28 over a body naming another version is a mismatch first.
    const body = modernRequest('server/discover');
    body.params._meta = { ...envelope, 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' };
    const versions = await exchange(body, headersFor('server/discover'));
    expect(versions.status).toBe(400);
    expect(versions.message.error.code).toBe(-32020);
  });

  it('answers the methods 2026-07-28 removed, and unknown ones, with 404 and -32601', async () => {
    const removed = ['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe'];
    for (const [index, method] of [...removed, 'unknown/method'].entries()) {
      const params = method.startsWith('resources/') ? { uri: 'coffer://fixture/x' } : {};
      const { status, message } = await exchange(
        modernRequest(method, params, 500 + index),
        headersFor(method),
      );
      expect({ method, status, code: message.error?.code, id: message.id }).toEqual({
        method,
        status: 404,
        code: -32601,
        id: 500 + index,
      });
    }
  });

  it('does not answer an initialize for 2026-07-28 as if it were a handshake version', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: VERSION,
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      },
    };
    const response = await post(init, {});
    const text = await response.text();
    const message = JSON.parse(text.includes('data: ') ? /data: (.*)/.exec(text)![1]! : text);
    expect(message.result.protocolVersion).toBe('2025-11-25');
  });

  it('delivers list_changed on subscriptions/listen when a tool is toggled', async () => {
    const controller = new AbortController();
    const listen = modernRequest(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true } },
      7,
    );
    const response = await fetch(`${daemon.baseUrl}/mcp`, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        authorization: `Bearer ${daemon.token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headersFor('subscriptions/listen'),
      },
      body: JSON.stringify(listen),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events: string[] = [];
    const reader = response.body!.getReader();
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        events.push(Buffer.from(value).toString('utf8'));
      }
    })().catch(() => undefined);
    await eventually(() =>
      expect(events.join('')).toContain('notifications/subscriptions/acknowledged'),
    );
    const toggled = await daemon.api('POST', '/servers/fixture/capabilities', {
      type: 'tool',
      keys: ['echo'],
      enabled: false,
    });
    expect(toggled.status).toBe(200);
    await eventually(() => expect(events.join('')).toContain('notifications/tools/list_changed'));
    expect(events.join('')).toContain('"io.modelcontextprotocol/subscriptionId":7');
    controller.abort();
    await reading;
    await daemon.api('POST', '/servers/fixture/capabilities', {
      type: 'tool',
      keys: ['echo'],
      enabled: true,
    });
  });
});
