import type { MiddlewareHandler } from 'hono';
import { currentTrace, newTraceContext, runWithTrace } from '../observability/trace-context.js';

export const TRACE_HEADER = 'x-coffer-trace-id';

/**
 * Every request runs inside a trace, so its log lines and its error body's traceId
 * match. The daemon's HTTP server usually opened one already (continuing the caller's
 * traceparent); this opens one only when the app is served on its own (tests).
 */
export function requestContext(): MiddlewareHandler {
  return async (c, next) => {
    const serve = async (): Promise<void> => {
      c.header(TRACE_HEADER, currentTrace()?.traceId ?? '');
      await next();
    };
    if (currentTrace() !== undefined) return serve();
    return runWithTrace(newTraceContext(), serve);
  };
}
