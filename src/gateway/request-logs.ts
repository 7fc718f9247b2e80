import { META } from '../domain/mcp-envelope.js';
import type { JsonObject } from '../domain/ports.js';
import { isLoggingLevel, passesLevel, type LoggingLevel } from './log-relay.js';
import { metaOf } from './protocol-eras.js';
import type {
  MethodTable,
  RequestContext,
  RequestHandler,
  RequestId,
} from './router/method-table.js';

/** Methods that are no relayed request: a listen stream, Coffer's own discover answer. */
const UNRELAYED = new Set(['subscriptions/listen', 'server/discover']);

interface OpenRequest {
  readonly level: LoggingLevel;
  readonly notify: RequestContext['notify'];
}

/**
 * Upstream log messages for 2026-07-28 requests. That revision has no logging/setLevel:
 * a request asks for the log lines it causes with `io.modelcontextprotocol/logLevel` in
 * its `_meta`, they travel on that request's own response stream, and a request without
 * it gets none. Requests of many clients share the upstream connections, so each relayed
 * request runs under a key of its own (its context id, as the upstream side sees it): an
 * upstream's log line names no request, and the key the upstream side says it belongs to
 * (session-parts.ts: the one request in flight to that upstream) picks the stream.
 */
export class RequestLogs {
  private readonly open = new Map<RequestId, OpenRequest>();
  private next = 0;

  /** `methods` with every relayed request running under its own key. */
  wrap(methods: MethodTable): MethodTable {
    const requests = new Map<string, RequestHandler>();
    for (const [method, handler] of methods.requests)
      requests.set(method, UNRELAYED.has(method) ? handler : this.keyed(handler));
    return { requests, notifications: methods.notifications };
  }

  /** An upstream's `notifications/message`, said to belong to the request keyed `related`. */
  forward(params: JsonObject, related: RequestId | undefined): void {
    const request = related === undefined ? undefined : this.open.get(related);
    if (request === undefined || !passesLevel(params['level'], request.level)) return;
    request.notify('notifications/message', params);
  }

  private keyed(handler: RequestHandler): RequestHandler {
    return async (params, context) => {
      const id = `coffer-request-${++this.next}`;
      const level = metaOf(params)?.[META.logLevel];
      if (isLoggingLevel(level)) this.open.set(id, { level, notify: context.notify });
      try {
        return await handler(params, { ...context, id });
      } finally {
        this.open.delete(id);
      }
    };
  }
}
