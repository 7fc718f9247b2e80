import type { CapabilityCatalog, ServerStatus } from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';

/**
 * A server as the API shows it. Env and header values are shown: secrets never live
 * there (they are keychain entries named in secret_env / secret_headers). Fields are
 * listed one by one so nothing the store adds later leaks onto the wire by accident.
 */
export interface ServerView {
  readonly id: number;
  readonly name: string;
  readonly transport: ServerRecord['transport'];
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly secret_env: readonly string[];
  readonly secret_headers: readonly string[];
  readonly enabled: boolean;
  readonly auto_enable_new_capabilities: boolean;
  /** One upstream connection for every agent session (opt-in; see docs/ARCHITECTURE.md). */
  readonly shared: boolean;
  readonly created_at: string;
  readonly updated_at: string;
  readonly status: ServerStatus;
  /** Tools held back because their definition changed since the user allowed them. */
  readonly held_tools: number;
  /**
   * A remote server: Coffer holds OAuth tokens for the URL it has now (docs/OAUTH.md).
   * Absent for a local server, or where the keychain cannot tell.
   */
  readonly signed_in?: boolean;
  /** A remote server's OAuth client given by hand (`--oauth-client-id`): its id, not its secret. */
  readonly oauth_client_id?: string;
}

/** What the keychain says of a remote server's OAuth; absent where it cannot tell. */
export interface RemoteOAuthView {
  readonly signedIn?: boolean | undefined;
  readonly clientId?: string | undefined;
}

export function toServerView(
  record: ServerRecord,
  catalog: CapabilityCatalog,
  heldTools: number,
  oauth: RemoteOAuthView = {},
): ServerView {
  return {
    id: record.id,
    name: record.name,
    transport: record.transport,
    ...(record.command === undefined ? {} : { command: record.command }),
    args: record.args,
    env: record.env,
    ...(record.cwd === undefined ? {} : { cwd: record.cwd }),
    ...(record.url === undefined ? {} : { url: record.url }),
    headers: record.headers,
    secret_env: record.secret_env,
    secret_headers: record.secret_headers,
    enabled: record.enabled,
    auto_enable_new_capabilities: record.auto_enable_new_capabilities,
    shared: record.shared,
    created_at: record.created_at,
    updated_at: record.updated_at,
    status: catalog.status(record.name),
    held_tools: heldTools,
    ...(oauth.signedIn === undefined ? {} : { signed_in: oauth.signedIn }),
    ...(oauth.clientId === undefined ? {} : { oauth_client_id: oauth.clientId }),
  };
}
