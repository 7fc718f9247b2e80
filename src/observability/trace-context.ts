import { randomFillSync } from 'node:crypto';

/**
 * The trace context of one request, passed along explicitly: the router puts it in each
 * handler's context, the HTTP edge keeps one per node request (request-trace.ts). It is
 * not kept in AsyncLocalStorage: on Node 20 that turns on a promise hook for every
 * promise of the process, which cost the daemon a fifth of its CPU per relayed call
 * (docs/PERFORMANCE.md). Ids follow W3C trace-context, so they can be forwarded as
 * `traceparent`.
 */
export interface TraceContext {
  readonly traceId: string;
  readonly spanId: string;
  readonly sessionId?: string;
}

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

export function newTraceContext(extra: { sessionId?: string } = {}): TraceContext {
  return { traceId: newTraceId(), spanId: newSpanId(), ...extra };
}

/**
 * The span of one JSON-RPC request: a child of `parent` when there is one (the HTTP
 * request it came in, continuing the caller's `traceparent`), else a new trace (the
 * shim's socket).
 */
export function childTrace(
  parent: { readonly traceId: string } | undefined,
  extra: { sessionId?: string } = {},
): TraceContext {
  if (parent === undefined) return newTraceContext(extra);
  return { traceId: parent.traceId, spanId: newSpanId(), ...extra };
}

/** W3C `traceparent` header value for the current span. */
export function traceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-01`;
}
