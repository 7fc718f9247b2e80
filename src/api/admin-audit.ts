import type { Context } from 'hono';
import type { ApiServices } from './api-services.js';
import { traceOf } from './request-context.js';

/** Longest `client_name` kept from a User-Agent: enough to tell the CLI from a browser. */
const MAX_CLIENT_NAME = 120;

export interface AdminAction {
  /** e.g. `server.add`, `capability.disable`, `secret.set`. */
  readonly action: string;
  readonly server: string | null;
  /** What inside the server, e.g. `tool:write_file` or `env/API_TOKEN`; never a value. */
  readonly key?: string;
}

/**
 * Records a successful admin action in the activity log, next to the calls it may
 * explain ("the tool vanished at 10:02: someone disabled it at 10:01"). Every API
 * caller holds the same token, so the User-Agent is the best "who" there is. Never
 * throws: an action that happened must not be reported as failed for its log entry.
 */
export function recordAdmin(services: ApiServices, c: Context, entry: AdminAction): void {
  const sink = services.audit;
  if (sink === undefined) return;
  try {
    const agent = c.req.header('user-agent');
    sink.record({
      at: services.clock.now().toISOString(),
      trace_id: traceOf(c).traceId,
      session_id: null,
      client_name: agent === undefined ? null : agent.slice(0, MAX_CLIENT_NAME),
      client_version: null,
      server: entry.server,
      capability_type: 'admin',
      capability_key: entry.key ?? null,
      action: entry.action,
      duration_ms: null,
      outcome: 'ok',
      error_code: null,
    });
  } catch {
    // See above: recording is best effort.
  }
}

/** Longest capability_key kept for a toggle of many keys. */
const MAX_TOGGLE_KEY = 500;

/** `tool:read_file,write_file`: one row per toggle request, however many keys it switched. */
export function toggleKey(type: string, keys: readonly string[]): string {
  const text = `${type}:${keys.join(',')}`;
  return text.length <= MAX_TOGGLE_KEY ? text : `${text.slice(0, MAX_TOGGLE_KEY - 1)}…`;
}
