import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../../src/domain/cancel-signal.js';
import type { JsonObject, UpstreamConnectContext } from '../../../src/domain/ports.js';
import { SharedUpstreams } from '../../../src/upstream/shared-upstreams.js';
import { FakeTransport } from './fake-transport.js';
import { connect, recordingPeer, settle } from './upstream-connection-harness.js';

/** A 2025 server the user marked `shared`, held by two sessions. */
async function sharedLegacy() {
  const registry = new SharedUpstreams({ name: 'coffer', version: '9.9.9' });
  const { connection, transport } = await connect(new FakeTransport(), {
    negotiation: 'legacy-first',
    clientCapabilities: {},
    peer: registry.peerFor('key'),
  });
  const first = session();
  const second = session();
  const leaseA = await registry.adopt('key', connection, first.context);
  const leaseB = registry.lease('key', second.context)!;
  return { registry, connection, transport, first, second, leaseA, leaseB };
}

function session() {
  const recorded = recordingPeer(() => Promise.resolve({}));
  const context: UpstreamConnectContext = {
    clientCapabilities: { sampling: {}, roots: {} },
    peer: recorded.peer,
    sessionId: null,
  };
  return { context, ...recorded };
}

function answerLast(transport: FakeTransport, method: string, result: JsonObject = {}) {
  const sent = transport.lastRequest(method);
  transport.deliver({ jsonrpc: '2.0', id: sent.id, result });
  return sent;
}

const updated = (uri: string) => ({
  jsonrpc: '2.0' as const,
  method: 'notifications/resources/updated',
  params: { uri },
});

describe('a shared 2025 upstream', () => {
  it('relays requests as they are, with each session its own progress token', async () => {
    const { transport, leaseA, leaseB } = await sharedLegacy();
    const progressA: JsonObject[] = [];
    const onProgress = (params: JsonObject) => void progressA.push(params);
    const callA = leaseA.request(
      'tools/call',
      { name: 'a', _meta: { progressToken: 7 } },
      {
        onProgress,
      },
    );
    await settle();
    const sentA = transport.lastRequest('tools/call');
    const callB = leaseB.request('tools/call', { name: 'b', _meta: { progressToken: 7 } });
    await settle();
    const sentB = transport.lastRequest('tools/call');
    const metaA = (sentA['params'] as { _meta: JsonObject })._meta;
    const metaB = (sentB['params'] as { _meta: JsonObject })._meta;
    // No 2026-07-28 envelope on a 2025 connection, and the two tokens never meet.
    expect(Object.keys(metaA)).toEqual(['progressToken']);
    expect(metaA['progressToken']).not.toEqual(metaB['progressToken']);
    transport.deliver({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: metaA['progressToken'], progress: 1 },
    });
    expect(progressA).toHaveLength(1);
    transport.deliver({ jsonrpc: '2.0', id: sentA.id, result: { content: [], isError: false } });
    transport.deliver({ jsonrpc: '2.0', id: sentB.id, result: { content: [] } });
    // Results verbatim: a 2025 result has nothing to take away.
    await expect(callA).resolves.toEqual({ content: [], isError: false });
    await expect(callB).resolves.toEqual({ content: [] });
  });

  it("cancels one session's call by that call's own id, and relays no client notification", async () => {
    const { transport, leaseA, leaseB } = await sharedLegacy();
    const controller = new Cancellation();
    const callA = leaseA.request('tools/call', { name: 'slow' }, { signal: controller });
    await settle();
    const sentA = transport.lastRequest('tools/call');
    const callB = leaseB.request('tools/call', { name: 'other' });
    await settle();
    await leaseB.notify();
    controller.abort(new Error('the client cancelled'));
    await expect(callA).rejects.toBeDefined();
    const cancels = transport.sentWith('notifications/cancelled');
    expect(cancels.map((message) => (message['params'] as JsonObject)['requestId'])).toEqual([
      sentA.id,
    ]);
    answerLast(transport, 'tools/call', { content: [] });
    await expect(callB).resolves.toEqual({ content: [] });
  });

  it('subscribes a URI once for all sessions, and unsubscribes with its last holder', async () => {
    const { transport, leaseA, leaseB } = await sharedLegacy();
    const subscribedA = leaseA.request('resources/subscribe', { uri: 'file:///a' });
    await settle();
    answerLast(transport, 'resources/subscribe');
    await expect(subscribedA).resolves.toEqual({});
    await expect(leaseB.request('resources/subscribe', { uri: 'file:///a' })).resolves.toEqual({});
    expect(transport.sentWith('resources/subscribe')).toHaveLength(1);
    await expect(leaseA.request('resources/unsubscribe', { uri: 'file:///a' })).resolves.toEqual(
      {},
    );
    expect(transport.sentWith('resources/unsubscribe')).toHaveLength(0);
    const last = leaseB.request('resources/unsubscribe', { uri: 'file:///a' });
    await settle();
    expect(answerLast(transport, 'resources/unsubscribe')['params']).toEqual({ uri: 'file:///a' });
    await expect(last).resolves.toEqual({});
  });

  it("sends a URI's updates to its subscribers only, list changes to everyone", async () => {
    const { transport, first, second, leaseA } = await sharedLegacy();
    const subscribed = leaseA.request('resources/subscribe', { uri: 'file:///a' });
    await settle();
    answerLast(transport, 'resources/subscribe');
    await subscribed;
    transport.deliver(updated('file:///a'));
    transport.deliver(updated('file:///unwatched'));
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(first.notifications.map((n) => n.method)).toEqual([
      'notifications/resources/updated',
      'notifications/tools/list_changed',
    ]);
    expect(first.notifications[0]?.params).toEqual({ uri: 'file:///a' });
    expect(second.notifications.map((n) => n.method)).toEqual(['notifications/tools/list_changed']);
  });

  it('lets a refused subscription go, so the next subscriber asks the server again', async () => {
    const { transport, leaseA, leaseB } = await sharedLegacy();
    const refused = leaseA.request('resources/subscribe', { uri: 'file:///gone' });
    await settle();
    const sent = transport.lastRequest('resources/subscribe');
    transport.deliver({ jsonrpc: '2.0', id: sent.id, error: { code: -32002, message: 'no' } });
    await expect(refused).rejects.toMatchObject({ code: -32002 });
    const again = leaseB.request('resources/subscribe', { uri: 'file:///gone' });
    await settle();
    answerLast(transport, 'resources/subscribe');
    await expect(again).resolves.toEqual({});
    expect(transport.sentWith('resources/subscribe')).toHaveLength(2);
  });

  it('unsubscribes what a closing session alone held, and closes with the last lease', async () => {
    const { connection, transport, leaseA, leaseB } = await sharedLegacy();
    const subscribe = async (lease: typeof leaseA, uri: string, sent: boolean) => {
      const subscribed = lease.request('resources/subscribe', { uri });
      await settle();
      if (sent) answerLast(transport, 'resources/subscribe');
      await subscribed;
    };
    await subscribe(leaseA, 'file:///mine', true);
    await subscribe(leaseA, 'file:///both', true);
    await subscribe(leaseB, 'file:///both', false);
    await leaseA.close();
    await settle();
    const unsubscribed = transport
      .sentWith('resources/unsubscribe')
      .map((message) => (message['params'] as JsonObject)['uri']);
    expect(unsubscribed).toEqual(['file:///mine']);
    expect(transport.closed).toBe(false);
    await leaseB.close();
    await connection.closed;
    expect(transport.closed).toBe(true);
  });
});
