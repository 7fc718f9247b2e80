import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Cancellation, type CancelSignal } from '../../../../src/domain/cancel-signal.js';
import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../../src/domain/errors.js';
import { UpstreamRpcError } from '../../../../src/domain/ports.js';
import { DownstreamNotifier } from '../../../../src/gateway/router/downstream-notifier.js';
import { DownstreamRequests } from '../../../../src/gateway/router/downstream-requests.js';
import { MessageRouter } from '../../../../src/gateway/router/message-router.js';
import { methodTable, type RequestHandler } from '../../../../src/gateway/router/method-table.js';

type Out = { message: Record<string, unknown>; related: string | number | undefined };

/** A router over `handlers`, recording what it sends. */
function routerWith(handlers: Record<string, RequestHandler>, notified: string[] = []) {
  const out: Out[] = [];
  const send = (message: JSONRPCMessage, related?: string | number) => {
    out.push({ message: message, related });
    return Promise.resolve();
  };
  const cancelled: (string | number)[] = [];
  const outbound = new DownstreamRequests(send);
  const router = new MessageRouter({
    methods: methodTable(Object.entries(handlers), [
      ['notifications/hello', () => notified.push('hello')],
    ]),
    send,
    outbound,
    onCancelled: (id) => cancelled.push(id),
  });
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  const receive = (message: Record<string, unknown>) =>
    router.receive({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  return { router, out, cancelled, outbound, flush, receive };
}

describe('MessageRouter', () => {
  it('answers each request with its handler, errors mapped once', async () => {
    const r = routerWith({
      ok: (params) => ({ echoed: params?.['x'] }),
      coffer: () => {
        throw new CofferError('TOOL_DISABLED', 'off', { hint: 'turn it on' });
      },
      upstream: () => Promise.reject(new UpstreamRpcError(-32042, 'theirs', { why: 1 })),
      crash: () => {
        throw new Error('/home/secret/path');
      },
    });
    for (const [id, method] of [
      [1, 'ok'],
      [2, 'coffer'],
      [3, 'upstream'],
      [4, 'crash'],
      [5, 'none'],
    ] as const)
      r.receive({ id, method, params: { x: id } });
    await r.flush();
    const byId = r.out.map((o) => o.message).sort((a, b) => Number(a['id']) - Number(b['id']));
    expect(byId).toEqual([
      { jsonrpc: '2.0', id: 1, result: { echoed: 1 } },
      {
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: -32602,
          message: 'off (turn it on)',
          data: { coffer_code: 'TOOL_DISABLED', hint: 'turn it on' },
        },
      },
      { jsonrpc: '2.0', id: 3, error: { code: -32042, message: 'theirs', data: { why: 1 } } },
      {
        jsonrpc: '2.0',
        id: 4,
        error: { code: -32603, message: 'Internal error', data: { coffer_code: 'INTERNAL' } },
      },
      { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'Method not found: none' } },
    ]);
  });

  it('aborts a cancelled request, answers nothing and lets the transport forget it', async () => {
    let signal: CancelSignal | undefined;
    const r = routerWith({
      slow: (_params, context) => {
        signal = context.signal;
        return new Promise((resolve) => context.signal.onAbort(() => resolve({})));
      },
    });
    r.receive({ id: 'a', method: 'slow' });
    r.receive({ method: 'notifications/cancelled', params: { requestId: 'a', reason: 'user' } });
    r.receive({ method: 'notifications/cancelled', params: { requestId: 'unknown' } });
    await r.flush();
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe('user');
    expect(r.out).toEqual([]);
    expect(r.cancelled).toEqual(['a']);
  });

  it('gives a handler a progress reporter only when the client sent a token', async () => {
    const r = routerWith({
      work: (_params, context) => {
        context.onProgress?.({ progress: 1 });
        return { reported: context.onProgress !== undefined };
      },
    });
    r.receive({ id: 1, method: 'work', params: { _meta: { progressToken: 9 } } });
    r.receive({ id: 2, method: 'work' });
    await r.flush();
    expect(r.out).toEqual([
      {
        message: {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progress: 1, progressToken: 9 },
        },
        related: 1,
      },
      { message: { jsonrpc: '2.0', id: 1, result: { reported: true } }, related: undefined },
      { message: { jsonrpc: '2.0', id: 2, result: { reported: false } }, related: undefined },
    ]);
  });

  it('hands notifications to their handler and answers to their waiter', async () => {
    const notified: string[] = [];
    const r = routerWith({}, notified);
    r.receive({ method: 'notifications/hello' });
    r.receive({ method: 'notifications/unknown' });
    const asked = r.outbound.request('roots/list', undefined, {
      signal: new Cancellation(),
    });
    r.receive({ id: 0, result: { roots: [] } });
    await expect(asked).resolves.toEqual({ roots: [] });
    expect(notified).toEqual(['hello']);
  });

  it('aborts running requests when closed and ignores what comes after', async () => {
    let signal: CancelSignal | undefined;
    const r = routerWith({ hang: (_p, c) => ((signal = c.signal), new Promise(() => undefined)) });
    r.receive({ id: 1, method: 'hang' });
    r.router.close();
    r.receive({ id: 2, method: 'hang' });
    await r.flush();
    expect(signal?.aborted).toBe(true);
    expect(r.out).toEqual([]);
  });

  it('refuses a table that names a method twice', () => {
    expect(() =>
      methodTable([
        ['a', () => ({})],
        ['a', () => ({})],
      ]),
    ).toThrow('twice');
  });
});

describe('DownstreamRequests', () => {
  it('numbers requests, rejects on an error answer, a cancel and a close', async () => {
    const r = routerWith({});
    const failing = r.outbound.request(
      'elicitation/create',
      {},
      { signal: new Cancellation(), relatedRequestId: 'c' },
    );
    r.receive({ id: 0, error: { code: -1, message: 'declined' } });
    await expect(failing).rejects.toMatchObject({ code: -1, message: 'declined' });
    const controller = new Cancellation();
    const aborted = r.outbound.request('sampling/createMessage', {}, { signal: controller });
    controller.abort(new Error('upstream gave up'));
    await expect(aborted).rejects.toThrow('upstream gave up');
    const pending = r.outbound.request('roots/list', undefined, {
      signal: new Cancellation(),
    });
    r.outbound.closeAll();
    await expect(pending).rejects.toMatchObject({ code: -32000 });
    expect(r.out.map((o) => [o.message['id'] ?? o.message['method'], o.related])).toEqual([
      [0, 'c'],
      [1, undefined],
      ['notifications/cancelled', undefined],
      [2, undefined],
    ]);
  });
});

describe('DownstreamNotifier', () => {
  it('coalesces a bare list_changed within one tick, never one with params', async () => {
    const sent: unknown[] = [];
    const notifier = new DownstreamNotifier(
      (message) => (sent.push(message), Promise.resolve()),
      new Set(['notifications/tools/list_changed']),
    );
    notifier.notify('notifications/tools/list_changed');
    notifier.notify('notifications/tools/list_changed');
    notifier.notify('notifications/message', { level: 'info' });
    notifier.notify('notifications/message', { level: 'info' });
    await Promise.resolve();
    notifier.notify('notifications/tools/list_changed');
    await Promise.resolve();
    expect(sent.map((m) => (m as { method: string }).method)).toEqual([
      'notifications/message',
      'notifications/message',
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
    ]);
  });
});
