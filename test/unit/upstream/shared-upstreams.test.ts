import { describe, expect, it } from 'vitest';
import type { JsonObject, UpstreamConnectContext } from '../../../src/domain/ports.js';
import { MAX_INPUT_ROUNDS } from '../../../src/upstream/input-required.js';
import { SharedUpstreams } from '../../../src/upstream/shared-upstreams.js';
import type { FakeTransport } from './fake-transport.js';
import { ModernFakeTransport } from './modern-fake-transport.js';
import { connect, recordingPeer, settle } from './upstream-connection-harness.js';

const clientInfo = { name: 'coffer', version: '9.9.9' };
const CAPS = 'io.modelcontextprotocol/clientCapabilities';

function session(clientCapabilities: JsonObject, answer = () => Promise.resolve({})) {
  const recorded = recordingPeer(answer);
  const context: UpstreamConnectContext = {
    clientCapabilities,
    peer: recorded.peer,
    sessionId: null,
  };
  return { context, ...recorded };
}

async function sharedConnection() {
  const registry = new SharedUpstreams(clientInfo);
  const { connection, transport } = await connect(new ModernFakeTransport(), {
    negotiation: 'modern-first',
    peer: registry.peerFor('key'),
  });
  return { registry, connection, transport };
}

/** Answers the last `method` request the connection sent with `result`. */
function answer(transport: FakeTransport, method: string, result: JsonObject) {
  const { id } = transport.lastRequest(method);
  transport.deliver({ jsonrpc: '2.0', id, result });
  return transport.lastRequest(method);
}

describe('shared modern upstreams', () => {
  it("stamps each session's own capabilities and keeps their progress tokens apart", async () => {
    const { registry, connection, transport } = await sharedConnection();
    const first = session({ sampling: {} });
    const second = session({ elicitation: {} });
    const leaseA = await registry.adopt('key', connection, first.context);
    const leaseB = registry.lease('key', second.context)!;
    const progress: JsonObject[] = [];
    const options = { onProgress: (params: JsonObject) => void progress.push(params) };
    const callA = leaseA.request('tools/call', { name: 'a', _meta: { progressToken: 1 } }, options);
    await settle();
    const sentA = transport.lastRequest('tools/call');
    const callB = leaseB.request('tools/call', { name: 'b', _meta: { progressToken: 1 } });
    await settle();
    const sentB = transport.lastRequest('tools/call');
    const metaA = (sentA['params'] as { _meta: JsonObject })._meta;
    const metaB = (sentB['params'] as { _meta: JsonObject })._meta;
    expect(metaA[CAPS]).toEqual({ sampling: {} });
    expect(metaB[CAPS]).toEqual({ elicitation: {} });
    expect(metaA['progressToken']).not.toEqual(metaB['progressToken']);
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: metaA['progressToken'], progress: 1 },
    });
    expect(progress).toHaveLength(1);
    transport.deliver({
      jsonrpc: '2.0',
      id: sentA.id,
      result: { content: [], resultType: 'complete', ttlMs: 0 },
    });
    transport.deliver({ jsonrpc: '2.0', id: sentB.id, result: { content: [] } });
    await expect(callA).resolves.toEqual({ content: [] });
    await expect(callB).resolves.toEqual({ content: [] });
  });

  it('tells every session of a list change, and logs a message once', async () => {
    const { registry, connection, transport } = await sharedConnection();
    const first = session({});
    const second = session({});
    await registry.adopt('key', connection, first.context);
    registry.lease('key', second.context);
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info' },
    });
    expect(first.notifications.map((n) => n.method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/message',
    ]);
    expect(second.notifications.map((n) => n.method)).toEqual(['notifications/tools/list_changed']);
  });

  it('closes the connection when the last session lets go, not before', async () => {
    const { registry, connection, transport } = await sharedConnection();
    const leaseA = await registry.adopt('key', connection, session({}).context);
    const leaseB = registry.lease('key', session({}).context)!;
    await leaseA.close();
    await leaseA.closed;
    expect(transport.closed).toBe(false);
    await leaseB.close();
    await connection.closed;
    expect(transport.closed).toBe(true);
    expect(registry.lease('key', session({}).context)).toBeUndefined();
  });

  it('ends every lease when the shared connection ends on its own, reported once', async () => {
    const { registry, connection, transport } = await sharedConnection();
    const lease = await registry.adopt('key', connection, session({}).context);
    const other = registry.lease('key', session({}).context)!;
    await transport.close();
    await Promise.all([lease.closed, other.closed]);
    expect(registry.lease('key', session({}).context)).toBeUndefined();
    // One crash of the upstream, reported by one session, not one per session.
    expect([lease.reportsEnd, other.reportsEnd]).toEqual([true, false]);
  });

  it('keeps the first connection when a second one races in, and closes the second', async () => {
    const { registry, connection } = await sharedConnection();
    await registry.adopt('key', connection, session({}).context);
    const late = await connect(new ModernFakeTransport(), { negotiation: 'modern-first' });
    const lease = await registry.adopt('key', late.connection, session({}).context);
    expect(late.transport.closed).toBe(true);
    expect(lease.serverCapabilities).toBe(connection.serverCapabilities);
  });
});

describe('input required, answered on the calling session', () => {
  it("asks the session's client, then retries with the answers and the request state", async () => {
    const { registry, connection, transport } = await sharedConnection();
    const asking = session({ elicitation: {} }, () =>
      Promise.resolve({ action: 'accept', content: { name: 'Ada' } }),
    );
    const bystander = session({ elicitation: {} });
    const lease = await registry.adopt('key', connection, asking.context);
    registry.lease('key', bystander.context);
    const call = lease.request('tools/call', { name: 'ask' });
    await settle();
    const question = { method: 'elicitation/create', params: { message: 'name?' } };
    answer(transport, 'tools/call', {
      resultType: 'input_required',
      inputRequests: { name: question },
      requestState: 'opaque',
    });
    await settle();
    const retry = transport.lastRequest('tools/call');
    expect(retry['params']).toMatchObject({
      name: 'ask',
      inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
      requestState: 'opaque',
    });
    transport.deliver({
      jsonrpc: '2.0',
      id: retry.id,
      result: { content: [], resultType: 'complete' },
    });
    await expect(call).resolves.toEqual({ content: [] });
    expect(asking.requests.map((r) => [r.method, r.params])).toEqual([
      ['elicitation/create', { message: 'name?' }],
    ]);
    expect(bystander.requests).toEqual([]);
  });

  it('gives up on a server that keeps asking', async () => {
    const { registry, connection, transport } = await sharedConnection();
    const lease = await registry.adopt('key', connection, session({}).context);
    const call = lease.request('tools/call', { name: 'ask' });
    const failed = expect(call).rejects.toThrow(/asked for input 8 times/);
    for (let round = 0; round <= MAX_INPUT_ROUNDS; round += 1) {
      await settle();
      answer(transport, 'tools/call', { resultType: 'input_required', requestState: `r${round}` });
    }
    await failed;
  });
});
