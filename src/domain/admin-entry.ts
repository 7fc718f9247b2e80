import type { ActivityEntry } from './ports.js';

export interface AdminEntryFields {
  readonly at: string;
  readonly server: string | null;
  /** e.g. `server.add`, `oauth.sign_in`, `database.restore`. */
  readonly action: string;
  /** What inside the server (`tool:write_file`, `env/API_TOKEN`), or a file; never a value. */
  readonly key?: string | null;
  /** The error code of an action that was done but did not get what it asked for. */
  readonly errorCode?: string | null;
  readonly traceId?: string | null;
  readonly client?: { readonly name: string | null; readonly version: string | null };
}

/**
 * An admin action's row in the activity log (capability_type `admin`), next to the calls
 * it may explain: the API's, the daemon's own (a sign-in, a restore). No session, no
 * duration; `error` when it did not get what it asked for.
 */
export function adminEntry(fields: AdminEntryFields): ActivityEntry {
  const errorCode = fields.errorCode ?? null;
  return {
    at: fields.at,
    trace_id: fields.traceId ?? null,
    session_id: null,
    client_name: fields.client?.name ?? null,
    client_version: fields.client?.version ?? null,
    server: fields.server,
    capability_type: 'admin',
    capability_key: fields.key ?? null,
    action: fields.action,
    duration_ms: null,
    outcome: errorCode === null ? 'ok' : 'error',
    error_code: errorCode,
  };
}
