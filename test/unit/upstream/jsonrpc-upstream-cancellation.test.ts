import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../../src/domain/cancel-signal.js';
import { UpstreamRpcError, type JsonObject } from '../../../src/domain/ports.js';
import { connect } from './upstream-connection-harness.js';

describe('JsonRpcUpstreamConnection cancellation', () => {
  it('sends notifications/cancelled with the upstream id and drops the late result', async () => {
    const { connection, transport } = await connect();
    const client = new Cancellation();
    const seen: JsonObject[] = [];
    const call = connection.request(
      'tools/call',
      { name: 'slow', _meta: { progressToken: 'p' } },
      { signal: client, onProgress: (progress) => seen.push(progress) },
    );
    const { id } = transport.lastRequest('tools/call');
    client.abort('client cancelled');
    // Not a connection failure: the session keeps the connection.
    await expect(call).rejects.toEqual(new UpstreamRpcError(-32001, 'client cancelled'));
    expect(transport.lastRequest('notifications/cancelled')['params']).toEqual({
      requestId: id,
      reason: 'client cancelled',
    });
    // The upstream answers anyway: nobody gets it, and nothing breaks.
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p' },
    });
    transport.deliver({
      jsonrpc: '2.0',
      id,
      result: { content: [{ type: 'text', text: 'late' }] },
    });
    expect(seen).toEqual([]);
    const next = connection.request('ping', undefined);
    transport.deliver({ jsonrpc: '2.0', id: transport.lastRequest('ping').id, result: {} });
    expect(await next).toEqual({});
  });

  it('fails a request cancelled before it was sent without judging the connection broken', async () => {
    const { connection, transport } = await connect();
    const client = new Cancellation();
    client.abort('client cancelled');
    const call = connection.request('tools/call', { name: 'slow' }, { signal: client });
    // Not UPSTREAM_UNAVAILABLE, which would evict the connection and end every call on it.
    await expect(call).rejects.toEqual(new UpstreamRpcError(-32001, 'client cancelled'));
    expect(transport.sentWith('tools/call')).toEqual([]);
    const next = connection.request('ping', undefined);
    transport.deliver({ jsonrpc: '2.0', id: transport.lastRequest('ping').id, result: {} });
    expect(await next).toEqual({});
  });
});
