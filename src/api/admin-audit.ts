import type { Context } from 'hono';
import type { ApiServices } from './api-services.js';
import { traceOf } from './request-context.js';
import { adminEntry } from '../domain/admin-entry.js';

/** Longest `client_name` kept from a User-Agent: enough to tell the CLI from a browser. */
const MAX_CLIENT_NAME = 120;

export interface AdminAction {
  /** e.g. `server.add`, `capability.disable`, `secret.set`. */
  readonly action: string;
  readonly server: string | null;
  /** What inside the server, e.g. `tool:write_file` or `env/API_TOKEN`; never a value. */
  readonly key?: string;
  /** The error code of an action that was done but did not get what it asked for. */
  readonly failedWith?: string;
}

/**
 * Records an admin action in the activity log, next to the calls it may
 * explain ("the tool vanished at 10:02: someone disabled it at 10:01"). Every API
 * caller holds the same token, so the User-Agent is the best "who" there is. Never
 * throws: an action that happened must not be reported as failed for its log entry.
 */
export function recordAdmin(services: ApiServices, c: Context, entry: AdminAction): void {
  const sink = services.audit;
  if (sink === undefined) return;
  try {
    const who = callerOf(c.req.header('user-agent'));
    sink.record(
      adminEntry({
        at: services.clock.now().toISOString(),
        traceId: traceOf(c).traceId,
        client: who,
        server: entry.server,
        key: entry.key ?? null,
        action: entry.action,
        errorCode: entry.failedWith ?? null,
      }),
    );
  } catch {
    // See above: recording is best effort.
  }
}

/** One `name/version` product token, as the CLI sends (`coffer-cli/0.1.0`). */
const PRODUCT_TOKEN = /^([A-Za-z0-9._-]{1,60})\/([A-Za-z0-9._+-]{1,40})$/;

/**
 * A lone product token splits into the name and version columns, as an agent's
 * clientInfo fills them; anything longer (a browser's) is kept whole as the name.
 */
function callerOf(agent: string | undefined): {
  name: string | null;
  version: string | null;
} {
  if (agent === undefined) return { name: null, version: null };
  const token = PRODUCT_TOKEN.exec(agent);
  if (token?.[1] !== undefined && token[2] !== undefined)
    return { name: token[1], version: token[2] };
  return { name: agent.slice(0, MAX_CLIENT_NAME), version: null };
}

/** Longest capability_key kept for a toggle of many keys. */
const MAX_TOGGLE_KEY = 500;

/** `tool:read_file,write_file`: one row per toggle request, however many keys it switched. */
export function toggleKey(type: string, keys: readonly string[]): string {
  const text = `${type}:${keys.join(',')}`;
  return text.length <= MAX_TOGGLE_KEY ? text : `${text.slice(0, MAX_TOGGLE_KEY - 1)}…`;
}
