import { describe, expect, it } from 'vitest';
import { Cancellation, type CancelSignal } from '../../../../src/domain/cancel-signal.js';
import { UpstreamRpcError } from '../../../../src/domain/ports.js';
import type { StatelessService } from '../../../../src/gateway/stateless-service.js';
import type { fakeGatewayContext } from './session-harness.js';
import type { Script } from './fake-upstream.js';
import { Channel, envelope, statelessServices } from './stateless-channel.js';

const listing: Script['tools/list'] = () => ({ tools: [{ name: 'work' }] });
const start = statelessServices();

describe('the stateless (2026-07-28) service', () => {
  it('answers server/discover with both eras, its capabilities and serverInfo', async () => {
    const channel = new Channel(start({ fx: { 'tools/list': listing } }).service);
    channel.request(1, 'server/discover');
    const { result } = (await channel.answer(1)) as { result: Record<string, unknown> };
    expect(result['supportedVersions']).toEqual(
      expect.arrayContaining(['2026-07-28', '2025-11-25']),
    );
    // Logging and resource subscriptions are offered on this era too (request-logs.ts,
    // resource-subscriptions.ts), but never logging/setLevel.
    expect(result['capabilities']).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true },
      logging: {},
    });
    expect(result).toMatchObject({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'coffer' } },
    });
  });

  it('lists with resultType and cache hints, and relays a call with its resultType', async () => {
    const channel = new Channel(
      start({ fx: { 'tools/list': listing, 'tools/call': () => ({ content: [] }) } }).service,
    );
    channel.request(1, 'tools/list');
    const list = (await channel.answer(1))['result'] as Record<string, unknown>;
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(list['tools']).toContainEqual(expect.objectContaining({ name: 'fx__work' }));
    channel.request(2, 'tools/call', { name: 'fx__work', arguments: {} });
    expect((await channel.answer(2))['result']).toEqual({ content: [], resultType: 'complete' });
  });

  it('keeps each request to its own channel, even when two clients use the same id', async () => {
    const { service } = start({
      fx: {
        'tools/list': listing,
        'tools/call': (params, options) => {
          const who = (params?.['arguments'] as { who: string }).who;
          options?.onProgress?.({ progress: 1, message: who });
          return { content: [{ type: 'text', text: who }] };
        },
      },
    });
    const [a, b] = [new Channel(service), new Channel(service)];
    for (const [channel, who] of [
      [a, 'a'],
      [b, 'b'],
    ] as const)
      channel.request(1, 'tools/call', {
        name: 'fx__work',
        arguments: { who },
        _meta: { progressToken: who },
      });
    const answers = await Promise.all([a.answer(1), b.answer(1)]);
    expect(JSON.stringify(answers[0])).toContain('"text":"a"');
    expect(JSON.stringify(answers[1])).toContain('"text":"b"');
    expect(JSON.stringify(a.sent)).not.toContain('"b"');
    expect(JSON.stringify(b.sent)).not.toContain('"a"');
    expect(a.sent.filter((m) => m['method'] === 'notifications/progress')).toHaveLength(1);
  });

  it('delivers list_changed to a listener only, stamped with its subscription id', async () => {
    const { service } = start({ fx: { 'tools/list': listing } });
    const [listener, other] = [new Channel(service), new Channel(service)];
    listener.request(9, 'subscriptions/listen', {
      notifications: { toolsListChanged: true, resourceSubscriptions: ['x'] },
    });
    const ack = await listener.next(
      (m) => m['method'] === 'notifications/subscriptions/acknowledged',
    );
    expect(ack['params']).toEqual({
      notifications: { toolsListChanged: true },
      _meta: { 'io.modelcontextprotocol/subscriptionId': 9 },
    });
    service.capabilitiesChanged('fx');
    const changed = await listener.next((m) => m['method'] === 'notifications/tools/list_changed');
    expect(changed['params']).toEqual({ _meta: { 'io.modelcontextprotocol/subscriptionId': 9 } });
    expect(listener.sent.some((m) => m['method'] === 'notifications/prompts/list_changed')).toBe(
      false,
    );
    expect(other.sent).toEqual([]);
    await service.close();
    expect((await listener.answer(9))['result']).toEqual({
      _meta: { 'io.modelcontextprotocol/subscriptionId': 9 },
      resultType: 'complete',
    });
  });

  it('refuses an upstream question outside any request, without waiting', async () => {
    const { service, upstreams } = start({ fx: { 'tools/list': listing } });
    const channel = new Channel(service);
    channel.request(1, 'tools/list');
    await channel.answer(1);
    const upstream = upstreams.connections[0]!;
    const asked = upstream.context.peer.request('roots/list', {}, new Cancellation());
    await expect(asked).rejects.toMatchObject({ code: -32601 });
  });
});

describe('the era bridge: an upstream question becomes input_required', () => {
  type Upstreams = ReturnType<typeof fakeGatewayContext>['upstreams'];
  type Peer = Upstreams['connections'][number]['context']['peer'];
  const sample = (peer: Peer, signal: CancelSignal) =>
    peer.request('sampling/createMessage', { maxTokens: 5 }, signal);
  /** fx's tool asks the client what `ask` asks, and answers with the replies. */
  function askingService(ask: (peer: Peer, signal: CancelSignal) => Promise<unknown> = sample): {
    service: StatelessService;
    upstreams: Upstreams;
  } {
    const box: { upstreams?: Upstreams } = {};
    const started = start({
      fx: {
        'tools/list': listing,
        'tools/call': async (_params, options) => {
          const peer = box.upstreams!.connections[0]!.context.peer;
          const signal = options?.signal ?? new Cancellation();
          const answer = await ask(peer, signal);
          return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
        },
      },
    });
    box.upstreams = started.upstreams;
    return started;
  }
  const sampling = {
    _meta: { ...envelope, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } },
  };

  it('asks the client, and resumes the call when it retries with the answer', async () => {
    const channel = new Channel(askingService().service);
    channel.request(1, 'tools/call', { name: 'fx__work', arguments: {}, ...sampling });
    const first = (await channel.answer(1))['result'] as Record<string, unknown>;
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'coffer-1': { method: 'sampling/createMessage', params: { maxTokens: 5 } } },
    });
    expect(first['requestState']).toMatch(/^[\w-]{32}$/);
    const reply = { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' };
    channel.request(2, 'tools/call', {
      name: 'fx__work',
      arguments: {},
      ...sampling,
      inputResponses: { 'coffer-1': reply },
      requestState: first['requestState'],
    });
    const done = (await channel.answer(2))['result'] as Record<string, unknown>;
    expect(done['resultType']).toBe('complete');
    expect(JSON.stringify(done['content'])).toContain('sampled');
  });

  it('asks the questions an upstream sends together in one input_required result', async () => {
    // Sent in one turn, as several requests in one read of an upstream's stream are.
    const { service } = askingService((peer, signal) =>
      Promise.all([
        sample(peer, signal),
        peer.request('sampling/createMessage', { maxTokens: 6 }, signal),
      ]),
    );
    const channel = new Channel(service);
    channel.request(1, 'tools/call', { name: 'fx__work', arguments: {}, ...sampling });
    const first = (await channel.answer(1))['result'] as Record<string, unknown>;
    expect(first['inputRequests']).toEqual({
      'coffer-1': { method: 'sampling/createMessage', params: { maxTokens: 5 } },
      'coffer-2': { method: 'sampling/createMessage', params: { maxTokens: 6 } },
    });
    const reply = (text: string) => ({
      role: 'assistant',
      content: { type: 'text', text },
      model: 'm',
    });
    channel.request(2, 'tools/call', {
      name: 'fx__work',
      arguments: {},
      ...sampling,
      inputResponses: { 'coffer-1': reply('one'), 'coffer-2': reply('two') },
      requestState: first['requestState'],
    });
    const done = (await channel.answer(2))['result'] as Record<string, unknown>;
    expect(done['resultType']).toBe('complete');
    expect(JSON.stringify(done['content'])).toMatch(/one.*two/);
  });

  it('answers -32021 naming the capability when the client did not declare it', async () => {
    const channel = new Channel(askingService().service);
    channel.request(1, 'tools/call', { name: 'fx__work', arguments: {} });
    expect((await channel.answer(1))['error']).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  describe('a URL-mode elicitation', () => {
    const urlQuestion = { mode: 'url', url: 'https://example.test/auth', message: 'Sign in' };
    const asksUrl = (peer: Peer, signal: CancelSignal) =>
      peer.request('elicitation/create', urlQuestion, signal);
    const declaring = (elicitation: Record<string, unknown>) => ({
      _meta: { ...envelope, 'io.modelcontextprotocol/clientCapabilities': { elicitation } },
    });

    it('is offered upstream: the connections declare every input mode and feature', async () => {
      const { service, upstreams } = askingService(asksUrl);
      const channel = new Channel(service);
      channel.request(1, 'tools/list');
      await channel.answer(1);
      expect(upstreams.connections[0]!.context.clientCapabilities).toEqual({
        roots: {},
        sampling: { tools: {}, context: {} },
        elicitation: { form: {}, url: {} },
      });
    });

    it('reaches a client that declared elicitation.url', async () => {
      const channel = new Channel(askingService(asksUrl).service);
      const call = { name: 'fx__work', arguments: {}, ...declaring({ url: {} }) };
      channel.request(1, 'tools/call', call);
      expect((await channel.answer(1))['result']).toMatchObject({
        resultType: 'input_required',
        inputRequests: { 'coffer-1': { method: 'elicitation/create', params: urlQuestion } },
      });
    });

    it('fails with -32021 naming elicitation.url for a client of form mode only', async () => {
      const channel = new Channel(askingService(asksUrl).service);
      // `{}` is form mode only, as the spec keeps it for clients older than the modes.
      channel.request(1, 'tools/call', { name: 'fx__work', arguments: {}, ...declaring({}) });
      const { error } = (await channel.answer(1)) as { error: Record<string, unknown> };
      expect(error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { elicitation: { url: {} } } },
      });
      expect(error['message']).toContain('declare elicitation.url');
    });
  });

  it('refuses a requestState it never gave', async () => {
    const channel = new Channel(askingService().service);
    channel.request(1, 'tools/call', {
      name: 'fx__work',
      arguments: {},
      ...sampling,
      requestState: 'guessed',
    });
    expect((await channel.answer(1))['error']).toMatchObject({
      message: expect.stringContaining('requestState') as unknown,
    });
  });

  it("asks nobody while two requests run: the question could be either one's", async () => {
    const { service } = askingService();
    const [a, b] = [new Channel(service), new Channel(service)];
    a.request(1, 'tools/call', { name: 'fx__work', arguments: {}, ...sampling });
    b.request(1, 'tools/call', { name: 'fx__work', arguments: {}, ...sampling });
    const answers = await Promise.all([a.answer(1), b.answer(1)]);
    const asked = answers.filter((m) => JSON.stringify(m).includes('input_required'));
    // The first question may come while only its own call runs; never both to both.
    expect(asked.length).toBeLessThan(2);
    // Refused as a question Coffer cannot attribute, not as an undeclared capability.
    expect(JSON.stringify(answers)).toContain('cannot tell which 2026-07-28 request');
    expect(JSON.stringify(answers)).not.toContain('Method not found');
  });
});

describe('the era bridge on resources/read', () => {
  it("turns a 2025 upstream's -32002 into -32602 with the URI asked for (SEP-2164)", async () => {
    const { service } = start(
      {
        fx: {
          'tools/list': listing,
          'resources/list': () => ({ resources: [{ uri: 'mem://gone', name: 'gone' }] }),
          'resources/read': () => {
            throw new UpstreamRpcError(-32002, 'Resource not found', { reason: 'deleted' });
          },
        },
      },
      { fx: { tools: {}, resources: {} } },
    );
    const channel = new Channel(service);
    channel.request(1, 'resources/list');
    const listed = (await channel.answer(1))['result'] as { resources: { uri: string }[] };
    const uri = listed.resources[0]!.uri;
    channel.request(2, 'resources/read', { uri });
    expect((await channel.answer(2))['error']).toEqual({
      code: -32602,
      message: 'Resource not found',
      data: { reason: 'deleted', uri },
    });
  });
});
