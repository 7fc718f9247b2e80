import { describe, expect, it } from 'vitest';
import {
  currentTrace,
  newSpanId,
  newTraceId,
  requestTraceContext,
  runWithTrace,
} from '../../../src/observability/trace-context.js';

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

  it("a request's span continues the trace already open, with a span of its own", () => {
    const parent = { traceId: newTraceId(), spanId: newSpanId() };
    const child = runWithTrace(parent, () => requestTraceContext({ sessionId: 's1' }));
    expect(child).toMatchObject({ traceId: parent.traceId, sessionId: 's1' });
    expect(child.spanId).not.toBe(parent.spanId);
  });

  it('a request outside any trace opens a new one', () => {
    expect(currentTrace()).toBeUndefined();
    const first = requestTraceContext();
    const second = requestTraceContext();
    expect(first.traceId).not.toBe(second.traceId);
  });
});
