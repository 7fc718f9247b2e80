import type { Context, MiddlewareHandler } from 'hono';
import type { IncomingMessage } from 'node:http';
import { requestTrace } from '../observability/request-trace.js';
import { newTraceContext, type TraceContext } from '../observability/trace-context.js';

export const TRACE_HEADER = 'x-coffer-trace-id';

const traces = new WeakMap<Request, TraceContext>();

/**
 * Every request gets a trace, so its log lines, its activity row and its error body's
 * traceId match. Behind the daemon's edge it is the node request's (continuing the
 * caller's traceparent); served on its own (tests), the app opens one.
 */
export function requestContext(): MiddlewareHandler {
  return async (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const trace = incoming === undefined ? newTraceContext() : requestTrace(incoming);
    traces.set(c.req.raw, trace);
    c.header(TRACE_HEADER, trace.traceId);
    await next();
  };
}

/** The trace of the API request `c` serves (a new one outside requestContext). */
export function traceOf(c: Context): TraceContext {
  let trace = traces.get(c.req.raw);
  if (trace === undefined) {
    trace = newTraceContext();
    traces.set(c.req.raw, trace);
  }
  return trace;
}
