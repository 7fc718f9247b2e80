import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { newSpanId, newTraceContext, type TraceContext } from './trace-context.js';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

// One trace per node request, made when something first asks: the edge's error bodies
// and the REST API's header, log lines and activity rows all name the same traceId. Kept
// by the request object, so it goes when the request does.
const traces = new WeakMap<IncomingMessage, TraceContext>();

/** The trace of an HTTP request: the caller's W3C trace when it sent one, else a new one. */
export function requestTrace(req: IncomingMessage): TraceContext {
  let trace = traces.get(req);
  if (trace === undefined) {
    trace = callerTrace(req.headers) ?? newTraceContext();
    traces.set(req, trace);
  }
  return trace;
}

/**
 * The caller's W3C trace (its `traceparent` header), continued with a span of ours;
 * undefined when it sent none, or a malformed or all-zero one.
 */
export function callerTrace(
  headers: IncomingHttpHeaders | Readonly<Record<string, string | string[] | undefined>>,
): TraceContext | undefined {
  const header = headers['traceparent'];
  if (typeof header !== 'string') return undefined;
  const traceId = TRACEPARENT.exec(header.trim())?.[1];
  return traceId !== undefined && !/^0+$/.test(traceId)
    ? { traceId, spanId: newSpanId() }
    : undefined;
}
