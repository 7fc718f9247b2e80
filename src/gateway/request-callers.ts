import type { JsonObject } from '../domain/ports.js';
import type { Caller } from './call-audit.js';
import type { MethodTable, RequestHandler } from './router/method-table.js';
import { readEnvelope } from './protocol-eras.js';

/** The caller of a request that says nothing about itself. */
export const NOBODY: Caller = { session_id: null, client_name: null, client_version: null };

/**
 * `methods` with each request's caller in its context, for its activity row. A 2026-07-28
 * request has no session: its client says who it is in its own envelope, and requests of
 * different clients run at once on the same shared parts, so the caller travels with
 * the request, never on the service.
 */
export function withCallers(methods: MethodTable): MethodTable {
  const requests = new Map<string, RequestHandler>();
  for (const [method, handler] of methods.requests) {
    requests.set(method, (params, context) =>
      handler(params, { ...context, caller: callerOf(params) }),
    );
  }
  return { requests, notifications: methods.notifications };
}

/** The envelope's clientInfo; a malformed envelope was refused before any handler ran. */
function callerOf(params: JsonObject | undefined): Caller {
  const envelope = readEnvelope(params);
  if (typeof envelope === 'string') return NOBODY;
  const { name, version } = envelope.clientInfo;
  return { session_id: null, client_name: name, client_version: version };
}
