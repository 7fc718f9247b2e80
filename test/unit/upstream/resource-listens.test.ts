import { describe, expect, it } from 'vitest';
import type { JsonObject, UpstreamConnectContext } from '../../../src/domain/ports.js';
import { SharedUpstreams } from '../../../src/upstream/shared-upstreams.js';
import type { FakeTransport } from './fake-transport.js';
import { ModernFakeTransport } from './modern-fake-transport.js';
import { connect, recordingPeer, settle } from './upstream-connection-harness.js';

const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const URI = 'modern://readme';

/** A shared modern connection to a server that offers resource subscriptions. */
async function subscribable(capabilities: JsonObject = { resources: { subscribe: true } }) {
  const transport = new ModernFakeTransport();
  transport.discoverResult = { ...transport.discoverResult, capabilities };
  const registry = new SharedUpstreams({ name: 'coffer', version: '9.9.9' });
  const { connection } = await connect(transport, {
    negotiation: 'modern-first',
    peer: registry.peerFor('key'),
  });
  const session = () => {
    const recorded = recordingPeer(() => Promise.resolve({}));
    const context: UpstreamConnectContext = {
      clientCapabilities: {},
      peer: recorded.peer,
      sessionId: null,
    };
    return { context, notifications: recorded.notifications };
  };
  const first = session();
  const second = session();
  const leaseA = await registry.adopt('key', connection, first.context);
  const leaseB = registry.lease('key', second.context)!;
  return { transport, leaseA, leaseB, first, second };
}

/** The listens sent so far, newest last. */
const listens = (transport: FakeTransport) =>
  transport.sentWith('subscriptions/listen') as (JsonObject & { id: number })[];

function acknowledge(transport: FakeTransport, id: number, honored: JsonObject) {
  transport.deliver({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { notifications: honored, _meta: { [SUBSCRIPTION]: id } },
  });
}

function updated(transport: FakeTransport, id: number) {
  transport.deliver({
    jsonrpc: '2.0',
    method: 'notifications/resources/updated',
    params: { uri: URI, _meta: { [SUBSCRIPTION]: id } },
  });
}

describe('resource subscriptions on a shared 2026-07-28 upstream', () => {
  it('opens a listen naming the URI, answers {} once acknowledged, and relays its updates to that session only', async () => {
    const { transport, leaseA, first, second } = await subscribable();
    const subscribing = leaseA.request('resources/subscribe', { uri: URI });
    await settle();
    const [listen] = listens(transport);
    expect(listen?.['params']).toMatchObject({ notifications: { resourceSubscriptions: [URI] } });
    acknowledge(transport, listen!.id, { resourceSubscriptions: [URI] });
    await expect(subscribing).resolves.toEqual({});
    updated(transport, listen!.id);
    expect(first.notifications).toEqual([
      { method: 'notifications/resources/updated', params: { uri: URI } },
    ]);
    expect(second.notifications).toEqual([]);
  });

  it('closes the stream on unsubscribe: the server is told, later updates are dropped', async () => {
    const { transport, leaseA, first } = await subscribable();
    const subscribing = leaseA.request('resources/subscribe', { uri: URI });
    await settle();
    const [listen] = listens(transport);
    acknowledge(transport, listen!.id, { resourceSubscriptions: [URI] });
    await subscribing;
    await expect(leaseA.request('resources/unsubscribe', { uri: URI })).resolves.toEqual({});
    await settle();
    expect(transport.sentWith('notifications/cancelled')).toEqual([
      expect.objectContaining({ params: expect.objectContaining({ requestId: listen!.id }) }),
    ]);
    updated(transport, listen!.id);
    expect(first.notifications).toEqual([]);
  });

  it('gives each session its own stream, and closes a session’s streams when it lets go', async () => {
    const { transport, leaseA, leaseB } = await subscribable();
    const a = leaseA.request('resources/subscribe', { uri: URI });
    const b = leaseB.request('resources/subscribe', { uri: URI });
    await settle();
    const [listenA, listenB] = listens(transport);
    expect(listenB).toBeDefined();
    for (const listen of [listenA!, listenB!])
      acknowledge(transport, listen.id, { resourceSubscriptions: [URI] });
    await Promise.all([a, b]);
    await leaseA.close();
    await settle();
    const cancelled = transport.sentWith('notifications/cancelled');
    expect(cancelled.map((sent) => (sent['params'] as JsonObject)['requestId'])).toEqual([
      listenA!.id,
    ]);
  });

  it('refuses when the server did not take the URI, or offers no subscriptions at all', async () => {
    const { transport, leaseA } = await subscribable();
    const subscribing = leaseA.request('resources/subscribe', { uri: URI });
    await settle();
    const [listen] = listens(transport);
    acknowledge(transport, listen!.id, {});
    await expect(subscribing).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(`did not accept a subscription to ${URI}`) as unknown,
    });
    const plain = await subscribable({ resources: {} });
    await expect(plain.leaseA.request('resources/subscribe', { uri: URI })).rejects.toMatchObject({
      code: -32601,
    });
    expect(listens(plain.transport)).toEqual([]);
  });
});
