import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { UpstreamRpcError, type JsonObject } from '../../../src/domain/ports.js';
import { FakeTransport } from './fake-transport.js';
import { connect, recordingPeer, settle } from './upstream-connection-harness.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('JsonRpcUpstreamConnection handshake', () => {
  it('declares only the client capabilities, checks the version and sends initialized', async () => {
    const { connection, transport } = await connect();
    const initialize = transport.lastRequest('initialize');
    expect(initialize['params']).toEqual({
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: { sampling: {} },
      clientInfo: { name: 'coffer', version: '9.9.9' },
    });
    expect(transport.sent.at(-1)).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(transport.protocolVersion).toBe('2025-06-18');
    expect(connection.serverCapabilities).toEqual({ tools: { listChanged: true } });
  });

  it('refuses a protocol version the SDK does not support, and closes', async () => {
    const transport = new FakeTransport();
    transport.initializeResult = { protocolVersion: '1999-01-01', capabilities: {} };
    await expect(connect(transport)).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: expect.stringContaining('protocol version is not supported: 1999-01-01'),
    });
    expect(transport.closed).toBe(true);
  });

  it('gives up after the connect timeout with the COFFER_CONNECT_TIMEOUT_MS hint', async () => {
    vi.useFakeTimers();
    const transport = new FakeTransport();
    transport.initializeResult = undefined;
    const opening = connect(transport, { connectTimeoutMs: 2_000 });
    const failed = expect(opening).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      message: 'Upstream "fake" did not finish starting (MCP initialize) within 2 s',
      hint: expect.stringContaining('COFFER_CONNECT_TIMEOUT_MS'),
    });
    await vi.advanceTimersByTimeAsync(2_000);
    await failed;
    expect(transport.closed).toBe(true);
  });

  it('relays an initialize error answer unchanged', async () => {
    const transport = new FakeTransport();
    transport.initializeResult = undefined;
    const opening = connect(transport);
    await settle();
    const { id } = transport.lastRequest('initialize');
    transport.deliver({ jsonrpc: '2.0', id, error: { code: -32600, message: 'no thanks' } });
    await expect(opening).rejects.toEqual(new UpstreamRpcError(-32600, 'no thanks'));
  });
});

describe('JsonRpcUpstreamConnection requests', () => {
  it('relays a result verbatim, unknown fields and content types included', async () => {
    const { connection, transport } = await connect();
    const call = connection.request('tools/call', { name: 'echo', arguments: { x: 1 } });
    const sent = transport.lastRequest('tools/call');
    expect(sent['params']).toEqual({ name: 'echo', arguments: { x: 1 } });
    const result = {
      content: [{ type: 'hologram', beams: 3 }],
      vendorExtension: { nested: [1, 2] },
      _meta: { 'x/y': true },
    };
    transport.deliver({ jsonrpc: '2.0', id: sent.id, result });
    expect(await call).toEqual(result);
  });

  it('relays an error answer with code, message and data unchanged', async () => {
    const { connection, transport } = await connect();
    const call = connection.request('resources/read', { uri: 'x' });
    const { id } = transport.lastRequest('resources/read');
    transport.deliver({
      jsonrpc: '2.0',
      id,
      error: { code: -32002, message: 'Resource not found', data: { uri: 'x' } },
    });
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UpstreamRpcError);
    expect(error).toMatchObject({
      code: -32002,
      message: 'Resource not found',
      data: { uri: 'x' },
    });
  });

  it('maps a refused send (HTTP 404 on a live session) to UPSTREAM_SESSION_EXPIRED', async () => {
    const { connection, transport } = await connect();
    transport.sendError = new StreamableHTTPError(404, 'Session not found');
    await expect(connection.request('tools/list', undefined)).rejects.toMatchObject({
      code: 'UPSTREAM_SESSION_EXPIRED',
    });
  });

  it('fails every pending request at once when the transport closes', async () => {
    const { connection, transport } = await connect();
    const first = connection.request('tools/call', { name: 'a' });
    const second = connection.request('tools/call', { name: 'b' });
    await transport.close();
    for (const call of [first, second]) {
      await expect(call).rejects.toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        message: 'Upstream "fake" closed the connection',
      });
    }
    await connection.closed;
    await expect(connection.request('ping', undefined)).rejects.toBeInstanceOf(CofferError);
  });

  it('closes on a cut stream, failing what waits on it', async () => {
    const { connection, transport } = await connect();
    const call = connection.request('tools/call', { name: 'a' });
    transport.onerror?.(new Error('SSE stream disconnected: TypeError: terminated'));
    await expect(call).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(transport.closed).toBe(true);
  });
});

describe('JsonRpcUpstreamConnection progress and deadlines', () => {
  it('routes progress by a token of its own, the last one before the result included', async () => {
    const { connection, transport } = await connect();
    const seen: JsonObject[] = [];
    const params = { name: 'slow', _meta: { progressToken: 'client-7', other: 1 } };
    const call = connection.request('tools/call', params, {
      onProgress: (progress) => seen.push(progress),
    });
    const sent = transport.lastRequest('tools/call');
    const token = tokenSent(sent);
    expect(token).not.toBe('client-7');
    expect(sent['params']).toEqual({ name: 'slow', _meta: { progressToken: token, other: 1 } });
    const progress = (n: number) => ({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: token, progress: n },
    });
    transport.deliver(progress(1));
    transport.deliver(progress(2));
    transport.deliver({ jsonrpc: '2.0', id: sent.id, result: { content: [] } });
    transport.deliver(progress(3));
    await call;
    expect(seen.map((p) => p['progress'])).toEqual([1, 2]);
  });

  it('gives two requests with the same client token each a token and their own progress', async () => {
    const { connection, transport } = await connect();
    const seen: Record<string, unknown[]> = { a: [], b: [] };
    const ask = (name: 'a' | 'b') => {
      const call = connection.request(
        'tools/call',
        { name, _meta: { progressToken: 0 } },
        { onProgress: (progress) => seen[name]?.push(progress['progress']) },
      );
      return { call, sent: transport.lastRequest('tools/call') };
    };
    const a = ask('a');
    const b = ask('b');
    expect(tokenSent(a.sent)).not.toEqual(tokenSent(b.sent));
    for (const [sent, progress] of [
      [b.sent, 1],
      [a.sent, 2],
      [b.sent, 3],
    ] as const) {
      transport.deliver({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: tokenSent(sent), progress },
      });
    }
    expect(seen).toEqual({ a: [2], b: [1, 3] });
    for (const { sent } of [a, b]) transport.deliver({ jsonrpc: '2.0', id: sent.id, result: {} });
    await Promise.all([a.call, b.call]);
  });

  it('resets the idle timeout on progress, times out when silent, and cancels upstream', async () => {
    vi.useFakeTimers();
    const { connection, transport } = await connect();
    const call = connection.request(
      'tools/call',
      { _meta: { progressToken: 5 } },
      { timeoutMs: 1_000 },
    );
    const failed = expect(call).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      message: 'Upstream "fake" went silent on tools/call',
    });
    const { id } = transport.lastRequest('tools/call');
    for (let beat = 0; beat < 3; beat += 1) {
      await vi.advanceTimersByTimeAsync(900);
      transport.deliver({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: tokenSent(transport.lastRequest('tools/call')), progress: beat },
      });
    }
    expect(transport.sentWith('notifications/cancelled')).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    await failed;
    expect(transport.lastRequest('notifications/cancelled')['params']).toEqual({
      requestId: id,
      reason: 'Upstream "fake" went silent on tools/call',
    });
  });

  it('stops at the overall cap even while progress keeps coming', async () => {
    vi.useFakeTimers();
    const { connection, transport } = await connect(undefined, { maxTotalTimeoutMs: 3_000 });
    const call = connection.request('tools/call', { _meta: { progressToken: 't' } });
    const failed = expect(call).rejects.toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      message: 'Upstream "fake" took longer than the overall limit on tools/call',
    });
    for (let beat = 0; beat < 6; beat += 1) {
      await vi.advanceTimersByTimeAsync(500);
      transport.deliver({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: tokenSent(transport.lastRequest('tools/call')), progress: beat },
      });
    }
    await failed;
  });
});

describe('JsonRpcUpstreamConnection upstream requests and notifications', () => {
  it('relays an upstream request to the peer and answers with the upstream id', async () => {
    const { peer, requests } = recordingPeer(() => Promise.resolve({ model: 'm', extra: 1 }));
    const { transport } = await connect(undefined, { peer });
    const params = { messages: [], maxTokens: 5 };
    transport.deliver({ jsonrpc: '2.0', id: 'up-1', method: 'sampling/createMessage', params });
    await settle();
    expect(requests.map(({ method, params: p }) => ({ method, params: p }))).toEqual([
      { method: 'sampling/createMessage', params },
    ]);
    expect(transport.sent.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 'up-1',
      result: { model: 'm', extra: 1 },
    });
  });

  it("answers the peer's error with its code and message, without the SDK prefix", async () => {
    const failing = recordingPeer(() =>
      Promise.reject(
        Object.assign(new Error('MCP error -32601: Method not found: roots/list'), {
          code: -32601,
        }),
      ),
    );
    const { transport } = await connect(undefined, { peer: failing.peer });
    transport.deliver({ jsonrpc: '2.0', id: 4, method: 'roots/list' });
    await settle();
    expect(transport.sent.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32601, message: 'Method not found: roots/list' },
    });
  });

  it('aborts the peer request when the upstream cancels it, and answers nothing', async () => {
    let release: (result: JsonObject) => void = () => undefined;
    const { peer, requests } = recordingPeer(
      () => new Promise<JsonObject>((resolve) => (release = resolve)),
    );
    const { transport } = await connect(undefined, { peer });
    transport.deliver({ jsonrpc: '2.0', id: 9, method: 'elicitation/create', params: {} });
    const sentBefore = transport.sent.length;
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 9, reason: 'user left' },
    });
    expect(requests[0]?.signal.aborted).toBe(true);
    release({ action: 'accept' });
    await settle();
    expect(transport.sent.length).toBe(sentBefore);
  });

  it('answers ping itself and hands other notifications to the peer', async () => {
    const recording = recordingPeer(() => Promise.resolve({}));
    const { transport } = await connect(undefined, { peer: recording.peer });
    transport.deliver({ jsonrpc: '2.0', id: 'p', method: 'ping' });
    await settle();
    expect(transport.sent.at(-1)).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info', data: 'hi' },
    });
    expect(recording.notifications).toEqual([
      { method: 'notifications/tools/list_changed', params: undefined },
      { method: 'notifications/message', params: { level: 'info', data: 'hi' } },
    ]);
    expect(recording.requests).toEqual([]);
  });

  it('aborts peer requests still running when the connection ends', async () => {
    const { peer, requests } = recordingPeer(() => new Promise<JsonObject>(() => undefined));
    const { transport } = await connect(undefined, { peer });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'roots/list' });
    await transport.close();
    expect(requests[0]?.signal.aborted).toBe(true);
  });
});

/** The progress token a request went upstream with. */
function tokenSent(sent: JsonObject): unknown {
  const params = sent['params'] as JsonObject;
  return (params['_meta'] as JsonObject)['progressToken'];
}
