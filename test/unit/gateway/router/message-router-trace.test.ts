import { describe, expect, it } from 'vitest';
import { DownstreamRequests } from '../../../../src/gateway/router/downstream-requests.js';
import { MessageRouter } from '../../../../src/gateway/router/message-router.js';
import { methodTable, type RequestContext } from '../../../../src/gateway/router/method-table.js';
import {
  childTrace,
  newSpanId,
  newTraceId,
  type TraceContext,
} from '../../../../src/observability/trace-context.js';

/** A router whose `seen` handler keeps each context and `fails` throws; failures are kept. */
function tracingRouter(traceFor?: (parent: TraceContext | undefined) => TraceContext) {
  const contexts: RequestContext[] = [];
  const failures: { method: string; trace: TraceContext }[] = [];
  const send = () => Promise.resolve();
  const router = new MessageRouter({
    methods: methodTable([
      ['seen', (_params, context) => (contexts.push(context), {})],
      [
        'fails',
        (_params, context) => {
          contexts.push(context);
          throw new Error('no');
        },
      ],
    ]),
    send,
    outbound: new DownstreamRequests(send),
    onFailure: (method, _error, trace) => failures.push({ method, trace }),
    ...(traceFor === undefined ? {} : { traceFor }),
  });
  const receive = (id: number, method: string, parent?: TraceContext) =>
    router.receive({ jsonrpc: '2.0', id, method }, parent);
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { contexts, failures, receive, flush };
}

describe('MessageRouter traces', () => {
  it('gives each request a span of its own, under the trace it came in when it had one', () => {
    const r = tracingRouter();
    const parent = { traceId: newTraceId(), spanId: newSpanId() };
    r.receive(1, 'seen', parent);
    r.receive(2, 'seen');
    r.receive(3, 'seen');
    const [continued, first, second] = r.contexts.map((context) => context.trace);
    expect(continued?.traceId).toBe(parent.traceId);
    expect(continued?.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(continued?.spanId).not.toBe(parent.spanId);
    expect(first?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(first?.traceId).not.toBe(parent.traceId);
    expect(first?.traceId).not.toBe(second?.traceId);
  });

  it("logs a failure under the failed request's own trace", async () => {
    const r = tracingRouter((parent) => childTrace(parent, { sessionId: 's-1' }));
    r.receive(1, 'fails');
    await r.flush();
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0]?.method).toBe('fails');
    expect(r.failures[0]?.trace).toBe(r.contexts[0]?.trace);
    expect(r.failures[0]?.trace.sessionId).toBe('s-1');
  });
});
