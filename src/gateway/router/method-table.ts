import type { CancelSignal } from '../../domain/cancel-signal.js';
import type { JsonObject } from '../../domain/ports.js';
import type { TraceContext } from '../../observability/trace-context.js';
import type { Caller } from '../call-audit.js';

/** A JSON-RPC id as MCP allows it (issue 19: strings and safe integers only). */
export type RequestId = string | number;

/** What a request handler gets besides the request's params. */
export interface RequestContext {
  readonly id: RequestId;
  /** Aborted when the client cancels the request or the session closes. */
  readonly signal: CancelSignal;
  /** Present when the client sent a progress token: reports progress under that token. */
  readonly onProgress?: ((progress: JsonObject) => void) | undefined;
  /** Sends a notification that belongs to this request (on HTTP: on its response stream). */
  readonly notify: (method: string, params: JsonObject) => void;
  /** This request's span: its activity row, its log lines and the upstream's traceparent. */
  readonly trace: TraceContext;
  /**
   * Who sent it, when that is said per request (a 2026-07-28 envelope); absent in a
   * session, whose client said it once at initialize.
   */
  readonly caller?: Caller;
}

/**
 * One method of a downstream session. Params arrive as the client sent them and the
 * result goes out as returned: no schema parsing on the way (issue 17, "relay verbatim").
 * A thrown error becomes the JSON-RPC error (rpc-error-mapping.ts).
 */
export type RequestHandler = (
  params: JsonObject | undefined,
  context: RequestContext,
) => Promise<JsonObject> | JsonObject;

export type NotificationHandler = (params: JsonObject | undefined) => void;

/** Every method a session answers: adding a method is adding one entry here. */
export interface MethodTable {
  readonly requests: ReadonlyMap<string, RequestHandler>;
  readonly notifications: ReadonlyMap<string, NotificationHandler>;
}

/** Builds a table from entries, refusing a method listed twice (a wiring mistake). */
export function methodTable(
  requests: readonly (readonly [string, RequestHandler])[],
  notifications: readonly (readonly [string, NotificationHandler])[] = [],
): MethodTable {
  return { requests: uniqueMap(requests), notifications: uniqueMap(notifications) };
}

function uniqueMap<T>(entries: readonly (readonly [string, T])[]): ReadonlyMap<string, T> {
  const map = new Map<string, T>();
  for (const [method, handler] of entries) {
    if (map.has(method)) throw new Error(`method ${method} is in the table twice`);
    map.set(method, handler);
  }
  return map;
}
