import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { EraProbeClosed } from '../../../src/upstream/era-negotiation.js';
import { UpstreamRpcError } from '../../../src/domain/ports.js';
import { FakeTransport } from './fake-transport.js';
import { ModernFakeTransport } from './modern-fake-transport.js';
import { connect, recordingPeer, settle } from './upstream-connection-harness.js';

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'coffer', version: '9.9.9' },
};

describe('era negotiation, modern first (an upstream of unknown era, stdio or Streamable HTTP)', () => {
  it('finds a modern server by server/discover with the envelope, and never initializes', async () => {
    const { connection, transport } = await connect(new ModernFakeTransport(), {
      negotiation: 'modern-first',
    });
    expect(transport.lastRequest('server/discover')['params']).toEqual({ _meta: envelope });
    expect(transport.sentWith('initialize')).toEqual([]);
    expect(connection.era).toBe('modern');
    expect(connection.protocolVersion).toBe('2026-07-28');
    expect(transport.protocolVersion).toBe('2026-07-28');
    expect(connection.serverCapabilities).toEqual({ tools: { listChanged: true }, prompts: {} });
  });

  it('falls back to initialize on the same connection when discover is not known', async () => {
    const transport = new FakeTransport();
    const opening = connect(transport, { negotiation: 'modern-first' });
    await settle();
    const { id } = transport.lastRequest('server/discover');
    transport.deliver({ jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } });
    const { connection } = await opening;
    expect(connection.era).toBe('legacy');
    expect(connection.protocolVersion).toBe('2025-06-18');
    expect(transport.sentWith('initialize')).toHaveLength(1);
  });

  it('asks discover again when refused with -32022 naming 2026-07-28, and stays modern', async () => {
    const transport = new ModernFakeTransport();
    transport.discoverRefusals = 1;
    const { connection } = await connect(transport, { negotiation: 'modern-first' });
    expect(transport.sentWith('server/discover')).toHaveLength(2);
    expect(transport.sentWith('initialize')).toEqual([]);
    expect(connection.era).toBe('modern');
  });

  it('asks discover only twice when the server keeps refusing, then tries initialize', async () => {
    const transport = new ModernFakeTransport();
    transport.discoverRefusals = 5;
    await expect(connect(transport, { negotiation: 'modern-first' })).rejects.toThrow();
    expect(transport.sentWith('server/discover')).toHaveLength(2);
    expect(transport.sentWith('initialize')).toHaveLength(1);
  });

  it('falls back to initialize when a 2025 HTTP server refuses discover with a bare HTTP error', async () => {
    for (const status of [400, 404, 405]) {
      const transport = new RefusingTransport(new StreamableHTTPError(status, 'not initialized'));
      const { connection } = await connect(transport, { negotiation: 'modern-first' });
      expect(connection.era).toBe('legacy');
      expect(transport.sentWith('initialize')).toHaveLength(1);
    }
  });

  it('does not take a 401 or 403 to discover for a 2025 server', async () => {
    for (const status of [401, 403]) {
      const transport = new RefusingTransport(new StreamableHTTPError(status, 'no'));
      await expect(connect(transport, { negotiation: 'modern-first' })).rejects.toThrow();
      expect(transport.sentWith('initialize')).toEqual([]);
    }
  });

  it('says the probe closed the connection, so the caller can start the server again', async () => {
    const transport = new FakeTransport();
    const opening = connect(transport, { negotiation: 'modern-first' });
    await settle();
    await transport.close();
    await expect(opening).rejects.toBeInstanceOf(EraProbeClosed);
  });
});

describe('era negotiation, legacy first (remembered legacy, or HTTP+SSE)', () => {
  it('sends initialize first, exactly as a 2025 client', async () => {
    const { connection, transport } = await connect(new FakeTransport());
    expect(transport.sent[0]?.['method']).toBe('initialize');
    expect(transport.sentWith('server/discover')).toEqual([]);
    expect(connection.era).toBe('legacy');
  });

  it('turns modern when initialize is refused with -32022 naming 2026-07-28', async () => {
    const { connection, transport } = await connect(new ModernFakeTransport());
    expect(transport.sent.map((message) => message['method'])).toEqual([
      'initialize',
      'server/discover',
      'subscriptions/listen',
    ]);
    expect(connection.era).toBe('modern');
  });

  it('turns modern when initialize is answered naming 2026-07-28, never saying initialized', async () => {
    const transport = new FakeTransport();
    transport.initializeResult = { protocolVersion: '2026-07-28', capabilities: { tools: {} } };
    const opening = connect(transport);
    await settle();
    const { id } = transport.lastRequest('server/discover');
    const result = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } };
    transport.deliver({ jsonrpc: '2.0', id, result });
    const { connection } = await opening;
    expect(connection.era).toBe('modern');
    expect(transport.sentWith('notifications/initialized')).toEqual([]);
  });

  it('keeps the -32022 error when the server names no modern version', async () => {
    const transport = new FakeTransport();
    transport.initializeResult = undefined;
    const opening = connect(transport);
    await settle();
    const { id } = transport.lastRequest('initialize');
    const error = { code: -32022, message: 'old', data: { supported: ['2024-11-05'] } };
    transport.deliver({ jsonrpc: '2.0', id, error });
    await expect(opening).rejects.toEqual(new UpstreamRpcError(-32022, 'old', error.data));
    expect(transport.sentWith('server/discover')).toEqual([]);
  });
});

describe('a modern connection', () => {
  it('stamps every request with the envelope, keeping the caller _meta', async () => {
    const { connection, transport } = await connect(new ModernFakeTransport(), {
      negotiation: 'modern-first',
    });
    const meta = { progressToken: 7, note: 'kept' };
    const call = connection.request('tools/call', { name: 'x', _meta: meta });
    await settle();
    const sent = transport.lastRequest('tools/call');
    // The progress token is the connection's own (jsonrpc-upstream-connection.test.ts).
    const own = { ...meta, progressToken: expect.any(Number) as unknown };
    expect(sent['params']).toEqual({ name: 'x', _meta: { ...own, ...envelope } });
    transport.deliver({ jsonrpc: '2.0', id: sent.id, result: { content: [] } });
    await expect(call).resolves.toEqual({ content: [] });
  });

  it('listens for list changes and hands them on without the subscription tag', async () => {
    const { peer, notifications } = recordingPeer(() => Promise.resolve({}));
    const { transport } = await connect(new ModernFakeTransport(), {
      negotiation: 'modern-first',
      peer,
    });
    const listen = transport.lastRequest('subscriptions/listen');
    expect(listen['params']).toEqual({
      notifications: { toolsListChanged: true },
      _meta: envelope,
    });
    const tag = { 'io.modelcontextprotocol/subscriptionId': listen.id };
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: tag },
    });
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: tag },
    });
    expect(notifications).toEqual([{ method: 'notifications/tools/list_changed', params: {} }]);
  });
});

/** A FakeTransport whose POST of server/discover fails with an HTTP error, as the SDK throws it. */
class RefusingTransport extends FakeTransport {
  constructor(private readonly refusal: Error) {
    super();
  }

  override send(message: JSONRPCMessage): Promise<void> {
    if ((message as { method?: string }).method !== 'server/discover') return super.send(message);
    this.sent.push(message);
    return Promise.reject(this.refusal);
  }
}
