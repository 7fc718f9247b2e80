import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { callerTrace, requestTrace } from '../../../src/observability/request-trace.js';
import { childTrace, newSpanId, newTraceId } from '../../../src/observability/trace-context.js';

describe('trace context', () => {
  it('mints W3C-shaped ids that do not repeat across many pool refills', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const trace = newTraceId();
      const span = newSpanId();
      expect(trace).toMatch(/^[0-9a-f]{32}$/);
      expect(span).toMatch(/^[0-9a-f]{16}$/);
      ids.add(trace).add(span);
    }
    expect(ids.size).toBe(4_000);
  });

  it("a request's span continues its parent's trace, with a span of its own", () => {
    const parent = { traceId: newTraceId(), spanId: newSpanId() };
    const child = childTrace(parent, { sessionId: 's1' });
    expect(child).toMatchObject({ traceId: parent.traceId, sessionId: 's1' });
    expect(child.spanId).not.toBe(parent.spanId);
  });

  it('a request without a parent opens a new trace', () => {
    const first = childTrace(undefined);
    const second = childTrace(undefined);
    expect(first.traceId).not.toBe(second.traceId);
  });
});

describe('the trace of an HTTP request', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

  it("continues the caller's traceparent, and refuses a malformed or all-zero one", () => {
    expect(callerTrace({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` })?.traceId).toBe(
      traceId,
    );
    expect(callerTrace({ traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` })).toBe(
      undefined,
    );
    expect(callerTrace({ traceparent: 'not-a-trace' })).toBeUndefined();
    expect(callerTrace({})).toBeUndefined();
  });

  it('is one trace per request, however many parts ask for it', () => {
    const req = request({});
    const first = requestTrace(req);
    expect(requestTrace(req)).toBe(first);
    expect(requestTrace(request({})).traceId).not.toBe(first.traceId);
    expect(
      requestTrace(request({ traceparent: `00-${traceId}-00f067aa0ba902b7-01` })).traceId,
    ).toBe(traceId);
  });
});
