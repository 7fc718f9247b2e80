import { describe, expect, it } from 'vitest';
import { paramsForEra, withoutEnvelope } from '../../../src/upstream/protocol-era.js';
import { connect } from './upstream-connection-harness.js';

/** What a 2026-07-28 client puts in `_meta` besides keys both eras share. */
const clientEnvelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'modern-agent', version: '2.0.0' },
  'io.modelcontextprotocol/logLevel': 'debug',
};
const shared = {
  progressToken: 'p-1',
  'io.modelcontextprotocol/related-task': { taskId: 't-1' },
  ui: { resourceUri: 'ui://x/app.html' },
};
const coffer = {
  clientCapabilities: { sampling: {} },
  clientInfo: { name: 'coffer', version: '9' },
};

describe('withoutEnvelope (a 2026-07-28 request forwarded to a 2025 upstream)', () => {
  it('removes the envelope keys and keeps every other _meta key', () => {
    const params = { name: 'echo', arguments: { v: 1 }, _meta: { ...clientEnvelope, ...shared } };
    expect(withoutEnvelope(params)).toEqual({ name: 'echo', arguments: { v: 1 }, _meta: shared });
  });

  it('drops a _meta that held only the envelope', () => {
    expect(withoutEnvelope({ name: 'echo', _meta: clientEnvelope })).toEqual({ name: 'echo' });
  });

  it('leaves params without envelope keys untouched', () => {
    const params = { name: 'echo', _meta: shared };
    expect(withoutEnvelope(params)).toBe(params);
    expect(withoutEnvelope(undefined)).toBeUndefined();
    expect(withoutEnvelope({ _meta: 'odd' })).toEqual({ _meta: 'odd' });
  });
});

describe('paramsForEra', () => {
  it("stamps Coffer's envelope for a modern upstream unless a lease stamped one", () => {
    const stamped = paramsForEra('modern', { name: 'echo', _meta: shared }, coffer);
    expect(stamped).toEqual({
      name: 'echo',
      _meta: {
        ...shared,
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
        'io.modelcontextprotocol/clientInfo': { name: 'coffer', version: '9' },
      },
    });
    const leased = { name: 'echo', _meta: clientEnvelope };
    expect(paramsForEra('modern', leased, coffer)).toBe(leased);
  });
});

describe('a 2025 upstream connection', () => {
  it('never receives a 2026-07-28 client envelope, only the keys both eras share', async () => {
    const { connection, transport } = await connect();
    const call = connection.request('tools/call', {
      name: 'echo',
      _meta: { ...clientEnvelope, ...shared },
    });
    const sent = transport.lastRequest('tools/call');
    // The progress token is the connection's own (jsonrpc-upstream-connection.test.ts).
    const own = { ...shared, progressToken: expect.any(Number) as unknown };
    expect(sent['params']).toEqual({ name: 'echo', _meta: own });
    transport.deliver({ jsonrpc: '2.0', id: sent.id, result: { content: [] } });
    await expect(call).resolves.toEqual({ content: [] });
  });
});
