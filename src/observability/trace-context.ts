import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync } from 'node:crypto';

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

// Every relayed request opens a span: one `randomFillSync` per id was a measurable part
// of the daemon's CPU per call, so ids are cut from a pool refilled 256 ids at a time
// (what Node's own randomUUID does).
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function randomHex(bytes: number): string {
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

export function newTraceId(): string {
  return randomHex(16);
}

export function newSpanId(): string {
  return randomHex(8);
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

/**
 * The span of one JSON-RPC request: a child of the trace already open (an HTTP request's,
 * continuing the caller's `traceparent`), or a new trace (the shim's socket).
 */
export function requestTraceContext(extra: { sessionId?: string } = {}): TraceContext {
  const parent = storage.getStore();
  if (parent === undefined) return newTraceContext(extra);
  return { traceId: parent.traceId, spanId: newSpanId(), ...extra };
}

/** W3C `traceparent` header value for the current span. */
export function traceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-01`;
}
