import { describe, expect, it } from 'vitest';
import { Cancellation } from '../../../../src/domain/cancel-signal.js';
import { eventually } from '../../../support/eventually.js';
import type { JsonObject } from '../../../../src/domain/ports.js';
import type { StatelessService } from '../../../../src/gateway/stateless-service.js';
import type { FakeConnector, Script } from './fake-upstream.js';
import { Channel, envelope, statelessServices, type Message } from './stateless-channel.js';

const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

const start = statelessServices();

/** An upstream whose tool `work` answers (with `text`, if given) only once released. */
function heldCall(text?: string): { script: Script; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const script: Script = {
    'tools/list': () => ({ tools: [{ name: 'work' }] }),
    'tools/call': async () => {
      await gate;
      return { content: text === undefined ? [] : [{ type: 'text', text }] };
    },
  };
  return { script, release };
}

const isAck = (m: Message) => m['method'] === 'notifications/subscriptions/acknowledged';
const updates = (channel: Channel) =>
  channel.sent.filter((m) => m['method'] === 'notifications/resources/updated');

describe('resource subscriptions through subscriptions/listen (2026-07-28)', () => {
  const resources: Script = {
    'resources/list': () => ({
      resources: [
        { uri: 'res://a', name: 'a' },
        { uri: 'ui://app/page.html', name: 'app' },
      ],
    }),
    'resources/subscribe': (params) => {
      if (params?.['uri'] === 'res://gone') throw new Error('Resource res://gone not found');
      return {};
    },
  };

  async function listenerOn(target: StatelessService, id: number, uris: string[]) {
    const channel = new Channel(target);
    channel.request(id, 'subscriptions/listen', {
      notifications: { resourceSubscriptions: uris },
    });
    const ack = await channel.next(isAck);
    return { channel, ack };
  }

  it('subscribes a named URI upstream under its own name and honours it in the ack', async () => {
    const { service, upstreams } = start({ fx: resources });
    const { ack } = await listenerOn(service, 7, ['coffer://fx/res://a', 'coffer://fx/res://gone']);
    expect(ack['params']).toEqual({
      notifications: { resourceSubscriptions: ['coffer://fx/res://a'] },
      _meta: { [SUBSCRIPTION]: 7 },
    });
    const subscribed = upstreams.latest('fx').calledWith('resources/subscribe');
    expect(subscribed.map((call) => call.params?.['uri'])).toEqual(['res://a', 'res://gone']);
  });

  it('relays an update only to the streams that named its URI, ui:// renamed both ways', async () => {
    const { service, upstreams } = start({ fx: resources });
    const app = await listenerOn(service, 1, ['ui://fx/app/page.html']);
    const plain = await listenerOn(service, 2, ['coffer://fx/res://a']);
    const upstream = upstreams.latest('fx');
    expect(upstream.calledWith('resources/subscribe').map((c) => c.params?.['uri'])).toEqual(
      expect.arrayContaining(['ui://app/page.html', 'res://a']),
    );
    upstream.context.peer.notify('notifications/resources/updated', { uri: 'ui://app/page.html' });
    const got = await app.channel.next((m) => m['method'] === 'notifications/resources/updated');
    expect(got['params']).toEqual({ uri: 'ui://fx/app/page.html', _meta: { [SUBSCRIPTION]: 1 } });
    expect(updates(plain.channel)).toEqual([]);
  });

  it('unsubscribes upstream when the last listener for a URI goes away', async () => {
    const { service, upstreams } = start({ fx: resources });
    const first = await listenerOn(service, 1, ['coffer://fx/res://a']);
    const second = await listenerOn(service, 2, ['coffer://fx/res://a']);
    const upstream = upstreams.latest('fx');
    expect(upstream.calledWith('resources/subscribe')).toHaveLength(1);
    first.channel.router.close();
    await Promise.resolve();
    expect(upstream.calledWith('resources/unsubscribe')).toEqual([]);
    upstream.context.peer.notify('notifications/resources/updated', { uri: 'res://a' });
    expect(updates(second.channel)).toHaveLength(1);
    expect(updates(first.channel)).toEqual([]);
    second.channel.router.close();
    await eventually(() =>
      expect(upstream.calledWith('resources/unsubscribe').map((c) => c.params?.['uri'])).toEqual([
        'res://a',
      ]),
    );
  });
});

describe('resource subscriptions when an upstream goes away', () => {
  it('subscribes the new connection again when the old one crashed', async () => {
    const { service, upstreams } = start({
      fx: { 'resources/list': () => ({ resources: [{ uri: 'res://a', name: 'a' }] }) },
    });
    const channel = new Channel(service);
    channel.request(1, 'subscriptions/listen', {
      notifications: { resourceSubscriptions: ['coffer://fx/res://a'] },
    });
    await channel.next(isAck);
    const first = upstreams.latest('fx');
    await first.close();
    await eventually(() => expect(upstreams.latest('fx')).not.toBe(first));
    const renewed = upstreams.latest('fx');
    await eventually(() =>
      expect(renewed.calledWith('resources/subscribe').map((c) => c.params?.['uri'])).toEqual([
        'res://a',
      ]),
    );
    renewed.context.peer.notify('notifications/resources/updated', { uri: 'res://a' });
    expect(updates(channel)).toHaveLength(1);
  });
});

describe('roots through the era bridge (2026-07-28)', () => {
  function rootsService(): Channel {
    const box: { upstreams?: FakeConnector } = {};
    const started = start({
      fx: {
        'tools/list': () => ({ tools: [{ name: 'work' }] }),
        'tools/call': async (_params, options) => {
          const peer = box.upstreams!.latest('fx').context.peer;
          const signal = options?.signal ?? new Cancellation();
          // As a 2025 server should, it goes on without roots when the client has none.
          const answer = await peer
            .request('roots/list', undefined, signal)
            .catch((error: unknown) => ({ refused: String(error) }));
          return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
        },
      },
    });
    box.upstreams = started.upstreams;
    return new Channel(started.service);
  }
  const roots = {
    _meta: { ...envelope, 'io.modelcontextprotocol/clientCapabilities': { roots: {} } },
  };

  it('asks a client that declared roots with an input request, and relays its answer', async () => {
    const channel = rootsService();
    channel.request(1, 'tools/call', { name: 'fx__work', arguments: {}, ...roots });
    const first = (await channel.answer(1))['result'] as JsonObject;
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'coffer-1': { method: 'roots/list' } },
    });
    const answer = { roots: [{ uri: 'file:///work', name: 'work' }] };
    channel.request(2, 'tools/call', {
      name: 'fx__work',
      arguments: {},
      ...roots,
      inputResponses: { 'coffer-1': answer },
      requestState: first['requestState'],
    });
    const done = (await channel.answer(2))['result'] as JsonObject;
    expect(done['resultType']).toBe('complete');
    expect(JSON.stringify(done['content'])).toContain('file:///work');
  });

  it('tells the upstream "method not found" when the client did not declare roots, and the call goes on', async () => {
    // 2025 servers ask roots/list on their own (after connecting, after a change): an
    // unrelated call in flight must not fail for it, unlike a sampling or elicitation.
    const channel = rootsService();
    channel.request(1, 'tools/call', { name: 'fx__work', arguments: {} });
    const answer = await channel.answer(1);
    expect(answer['error']).toBeUndefined();
    const result = answer['result'] as JsonObject;
    expect(result['resultType']).toBe('complete');
    expect(JSON.stringify(result['content'])).toContain('Method not found: roots/list');
  });
});

describe('which request an upstream question goes to (2026-07-28)', () => {
  const roots = {
    _meta: { ...envelope, 'io.modelcontextprotocol/clientCapabilities': { roots: {} } },
  };
  function askingUpstreams(): { service: StatelessService; upstreams: FakeConnector } {
    const box: { upstreams?: FakeConnector } = {};
    const asking = (server: string): Script => ({
      'tools/list': () => ({ tools: [{ name: 'work' }] }),
      'tools/call': async (_params, options) => {
        const peer = box.upstreams!.latest(server).context.peer;
        await peer.request('roots/list', undefined, options!.signal!);
        return { content: [] };
      },
    });
    const started = start({ fx: asking('fx'), gx: asking('gx') });
    box.upstreams = started.upstreams;
    return started;
  }

  it('asks each client its own question while their calls wait on different upstreams', async () => {
    const { service } = askingUpstreams();
    const [a, b] = [new Channel(service), new Channel(service)];
    a.request(1, 'tools/call', { name: 'fx__work', arguments: {}, ...roots });
    b.request(1, 'tools/call', { name: 'gx__work', arguments: {}, ...roots });
    const answers = await Promise.all([a.answer(1), b.answer(1)]);
    for (const answer of answers)
      expect(answer['result']).toMatchObject({ resultType: 'input_required' });
  });

  it("does not ask a client about another upstream's question", async () => {
    const { script, release } = heldCall('done');
    const { service, upstreams } = start({
      fx: script,
      gx: { 'tools/list': () => ({ tools: [{ name: 'other' }] }) },
    });
    const channel = new Channel(service);
    channel.request(0, 'tools/list');
    await channel.answer(0);
    channel.request(1, 'tools/call', { name: 'fx__work', arguments: {}, ...roots });
    await eventually(() => expect(upstreams.latest('fx').calledWith('tools/call')).toHaveLength(1));
    const asked = upstreams
      .latest('gx')
      .context.peer.request('roots/list', undefined, new Cancellation());
    await expect(asked).rejects.toMatchObject({ code: -32603 });
    release();
    expect((await channel.answer(1))['result']).toMatchObject({ resultType: 'complete' });
  });
});

describe('log messages on the request that asked for them (2026-07-28)', () => {
  const levels = ['debug', 'info', 'warning', 'error'];
  function loggingService(): StatelessService {
    const box: { upstreams?: FakeConnector } = {};
    const started = start({
      fx: {
        'tools/list': () => ({ tools: [{ name: 'work' }] }),
        'tools/call': () => {
          const peer = box.upstreams!.latest('fx').context.peer;
          for (const level of levels)
            peer.notify('notifications/message', { level, data: `${level} line` });
          return { content: [] };
        },
      },
    });
    box.upstreams = started.upstreams;
    return started.service;
  }
  const logs = (channel: Channel) =>
    channel.sent
      .filter((m) => m['method'] === 'notifications/message')
      .map((m) => (m['params'] as JsonObject)['level']);

  it('sends the lines at or above the level the request named, before its answer', async () => {
    const channel = new Channel(loggingService());
    channel.request(1, 'tools/call', {
      name: 'fx__work',
      arguments: {},
      _meta: { ...envelope, [LOG_LEVEL]: 'warning' },
    });
    await channel.answer(1);
    expect(logs(channel)).toEqual(['warning', 'error']);
    const answerAt = channel.sent.findIndex((m) => m['id'] === 1);
    expect(channel.sent.findIndex((m) => m['method'] === 'notifications/message')).toBeLessThan(
      answerAt,
    );
  });

  it('sends none to a request without a log level, nor to other clients', async () => {
    const target = loggingService();
    const [quiet, listener] = [new Channel(target), new Channel(target)];
    listener.request(5, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    await listener.next(isAck);
    quiet.request(1, 'tools/call', { name: 'fx__work', arguments: {} });
    await quiet.answer(1);
    expect(logs(quiet)).toEqual([]);
    expect(logs(listener)).toEqual([]);
  });

  it('sends a line to nobody while two requests wait on the same upstream', async () => {
    const { script, release } = heldCall();
    const { service, upstreams } = start({ fx: script });
    const [a, b] = [new Channel(service), new Channel(service)];
    for (const channel of [a, b])
      channel.request(1, 'tools/call', {
        name: 'fx__work',
        arguments: {},
        _meta: { ...envelope, [LOG_LEVEL]: 'debug' },
      });
    await eventually(() => expect(upstreams.latest('fx').calledWith('tools/call')).toHaveLength(2));
    upstreams.latest('fx').context.peer.notify('notifications/message', {
      level: 'error',
      data: 'whose?',
    });
    release();
    await Promise.all([a.answer(1), b.answer(1)]);
    expect([...logs(a), ...logs(b)]).toEqual([]);
  });
});
