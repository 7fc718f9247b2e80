import { AsyncLocalStorage } from 'node:async_hooks';
import type { JsonObject } from '../domain/ports.js';
import type { Caller } from './call-audit.js';
import type { MethodTable, RequestHandler } from './router/method-table.js';
import { readEnvelope } from './protocol-eras.js';

const NOBODY: Caller = { session_id: null, client_name: null, client_version: null };

/**
 * Who sent the 2026-07-28 request being served, for its activity row. Such a request has
 * no session: its client says who it is in its own envelope, and requests of different
 * clients run at once on the same shared parts, so the caller is kept per request (in
 * the request's async context), never on the service.
 */
export class RequestCallers {
  private readonly storage = new AsyncLocalStorage<Caller>();

  /** The caller of the request whose handling is running now (nobody outside one). */
  current(): Caller {
    return this.storage.getStore() ?? NOBODY;
  }

  /** `methods` with every request handled inside its own caller's context. */
  wrap(methods: MethodTable): MethodTable {
    const requests = new Map<string, RequestHandler>();
    for (const [method, handler] of methods.requests) {
      requests.set(method, (params, context) =>
        this.storage.run(callerOf(params), () => handler(params, context)),
      );
    }
    return { requests, notifications: methods.notifications };
  }
}

/** The envelope's clientInfo; a malformed envelope was refused before any handler ran. */
function callerOf(params: JsonObject | undefined): Caller {
  const envelope = readEnvelope(params);
  if (typeof envelope === 'string') return NOBODY;
  const { name, version } = envelope.clientInfo;
  return { session_id: null, client_name: name, client_version: version };
}
