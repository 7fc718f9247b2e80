import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';

/**
 * The trace context of the request being served. Stored in AsyncLocalStorage so every
 * log line written while serving it carries its traceId without passing it around.
 * Ids follow W3C trace-context, so they can be forwarded as `traceparent`.
 */
export interface TraceContext {
  readonly traceId: string;
  readonly spanId: string;
  readonly sessionId?: string;
}

const storage = new AsyncLocalStorage<TraceContext>();

export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

export function newSpanId(): string {
  return randomBytes(8).toString('hex');
}

export function currentTrace(): TraceContext | undefined {
  return storage.getStore();
}

export function runWithTrace<T>(context: TraceContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function newTraceContext(extra: { sessionId?: string } = {}): TraceContext {
  return { traceId: newTraceId(), spanId: newSpanId(), ...extra };
}

/** W3C `traceparent` header value for the current span. */
export function traceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-01`;
}
