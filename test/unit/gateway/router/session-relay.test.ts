import { afterEach, describe, expect, it } from 'vitest';
import { Cancellation } from '../../../../src/domain/cancel-signal.js';
import type { JsonObject, UpstreamRequestOptions } from '../../../../src/domain/ports.js';
import { startSession, type Harness } from './session-harness.js';
import type { Script } from './fake-upstream.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.session.close();
  harness = undefined;
});

const listing: Script['tools/list'] = () => ({ tools: [{ name: 'work' }] });

/** An upstream tool that waits until the test lets it go, and shows its request options. */
function heldTool() {
  let seen: UpstreamRequestOptions | undefined;
  let release!: (result: JsonObject) => void;
  let started!: () => void;
  const start = new Promise<void>((resolve) => (started = resolve));
  const script: Script = {
    'tools/list': listing,
    'tools/call': (_params, options) => {
      seen = options;
      started();
      return new Promise((resolve) => (release = resolve));
    },
  };
  return { script, start, options: () => seen, release: (result: JsonObject) => release(result) };
}

describe('a session relays the life of a call', () => {
  it('caches lists until the TTL passes or the upstream says list_changed, and tells the client', async () => {
    harness = await startSession({ fx: { 'tools/list': listing } });
    await harness.initialize();
    await harness.client.request(1, 'tools/list');
    await harness.client.request(2, 'tools/list');
    const upstream = harness.upstreams.latest('fx');
    expect(upstream.calledWith('tools/list')).toHaveLength(1);
    harness.clock.advance(60_001);
    await harness.client.request(3, 'tools/list');
    expect(upstream.calledWith('tools/list')).toHaveLength(2);
    upstream.context.peer.notify('notifications/tools/list_changed', undefined);
    await harness.client.next(
      (sent) => sent.message['method'] === 'notifications/tools/list_changed',
    );
    await harness.client.request(4, 'tools/list');
    expect(upstream.calledWith('tools/list')).toHaveLength(3);
  });

  it('sends one list_changed per list for many changes in one tick', async () => {
    harness = await startSession({ fx: { 'tools/list': listing } });
    await harness.initialize();
    for (let i = 0; i < 5; i++) harness.session.capabilitiesChanged('fx');
    await harness.client.request(1, 'ping');
    const changed = harness.client.sent.filter(
      (s) => s.message['method'] === 'notifications/tools/list_changed',
    );
    expect(changed).toHaveLength(1);
  });

  it('cancels: the upstream sees the abort, and the client gets no answer', async () => {
    const tool = heldTool();
    harness = await startSession({ fx: tool.script });
    await harness.initialize();
    harness.client.receive({ id: 7, method: 'tools/call', params: { name: 'fx__work' } });
    await tool.start;
    harness.client.receive({ method: 'notifications/cancelled', params: { requestId: 7 } });
    expect(tool.options()?.signal?.aborted).toBe(true);
    tool.release({ content: [] });
    // The late result has run its course once every pending job has (the activity row).
    await new Promise((resolve) => setImmediate(resolve));
    expect(harness.activity).toEqual([expect.objectContaining({ capability_key: 'work' })]);
    expect(harness.client.sent.some((s) => s.message['id'] === 7)).toBe(false);
  });

  it("relays progress under the client's own token, on the call's stream", async () => {
    const tool = heldTool();
    harness = await startSession({ fx: tool.script });
    await harness.initialize();
    harness.client.receive({
      id: 'p1',
      method: 'tools/call',
      params: { name: 'fx__work', _meta: { progressToken: 'mine' } },
    });
    await tool.start;
    tool.options()?.onProgress?.({ progress: 1, total: 2, progressToken: 'upstream-token' });
    const progress = await harness.client.next(
      (s) => s.message['method'] === 'notifications/progress',
    );
    expect(progress.message['params']).toEqual({ progress: 1, total: 2, progressToken: 'mine' });
    expect(progress.related).toBe('p1');
    tool.release({ content: [{ type: 'text', text: 'done' }] });
    expect((await harness.client.answer('p1'))['result']).toEqual({
      content: [{ type: 'text', text: 'done' }],
    });
  });

  it("relays an upstream's sampling request to its own client on the call's stream, and the answer back", async () => {
    const tool = heldTool();
    harness = await startSession({ fx: tool.script });
    await harness.initialize({ sampling: {} });
    harness.client.receive({ id: 'c1', method: 'tools/call', params: { name: 'fx__work' } });
    await tool.start;
    const peer = harness.upstreams.latest('fx').context.peer;
    const asked = peer.request('sampling/createMessage', { messages: [] }, new Cancellation());
    const question = await harness.client.next(
      (s) => s.message['method'] === 'sampling/createMessage',
    );
    expect(question.related).toBe('c1');
    harness.client.receive({
      id: question.message['id'],
      result: { role: 'assistant', content: { type: 'text', text: 'ok' } },
    });
    await expect(asked).resolves.toMatchObject({ role: 'assistant' });
    const roots = peer.request('roots/list', undefined, new Cancellation());
    await expect(roots).rejects.toMatchObject({ code: -32601 });
    tool.release({ content: [] });
  });

  it('asks its client only in a mode and with features the client declared', async () => {
    const tool = heldTool();
    harness = await startSession({ fx: tool.script });
    // `{}` is form mode only; sampling without tools.
    await harness.initialize({ elicitation: {}, sampling: {} });
    harness.client.receive({ id: 'c1', method: 'tools/call', params: { name: 'fx__work' } });
    await tool.start;
    const peer = harness.upstreams.latest('fx').context.peer;
    const url = { mode: 'url', url: 'https://example.test', message: 'Sign in' };
    await expect(peer.request('elicitation/create', url, new Cancellation())).rejects.toMatchObject(
      { code: -32602, message: expect.stringContaining('elicitation.url') },
    );
    const withTools = { messages: [], maxTokens: 5, tools: [{ name: 't', inputSchema: {} }] };
    await expect(
      peer.request('sampling/createMessage', withTools, new Cancellation()),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('sampling.tools') });
    // A form question still reaches it, and it is the first message the client got.
    const form = peer.request('elicitation/create', { message: 'Name?' }, new Cancellation());
    const question = await harness.client.next((s) => s.message['method'] !== undefined);
    expect(question.message).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Name?' },
    });
    harness.client.receive({ id: question.message['id'], result: { action: 'decline' } });
    await expect(form).resolves.toEqual({ action: 'decline' });
    tool.release({ content: [] });
  });

  it('connects again after the upstream went away', async () => {
    harness = await startSession({
      fx: { 'tools/list': listing, 'tools/call': () => ({ content: [] }) },
    });
    await harness.initialize();
    await harness.client.request(1, 'tools/call', { name: 'fx__work' });
    const first = harness.upstreams.latest('fx');
    await first.close();
    await harness.session.pool.live();
    const second = await harness.client.request(2, 'tools/call', { name: 'fx__work' });
    expect(second['result']).toEqual({ content: [] });
    expect(harness.upstreams.connections).toHaveLength(2);
    expect(harness.upstreams.latest('fx')).not.toBe(first);
  });

  it('aborts running calls and fails pending questions when the session closes', async () => {
    const tool = heldTool();
    harness = await startSession({ fx: tool.script });
    await harness.initialize({ elicitation: {} });
    harness.client.receive({ id: 'c1', method: 'tools/call', params: { name: 'fx__work' } });
    await tool.start;
    const asked = harness.upstreams
      .latest('fx')
      .context.peer.request('elicitation/create', {}, new Cancellation());
    await harness.session.close();
    expect(tool.options()?.signal?.aborted).toBe(true);
    await expect(asked).rejects.toMatchObject({ code: -32000 });
    expect(harness.client.closed).toBe(true);
  });
});
