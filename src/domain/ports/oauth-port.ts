/** Ports for remote servers that need OAuth: where tokens live, and the sign-in flow. */

/**
 * What Coffer keeps per server, each slot one keychain entry (JSON text): tokens (with
 * `expires_at`), the registered client, a pre-registered client, the PKCE verifier of a
 * sign-in in progress, and the discovery results (metadata URLs, no secrets).
 */
export type OAuthSlot = 'tokens' | 'client' | 'preregistered' | 'verifier' | 'discovery';

export const oauthSlots: readonly OAuthSlot[] = [
  'tokens',
  'client',
  'preregistered',
  'verifier',
  'discovery',
];

/**
 * OAuth credentials, kept where secrets are (OS keychain or the 0600 fallback file):
 * never in the database, the logs or an API answer. Implemented by src/credentials.
 */
export interface OAuthCredentialStore {
  load(server: string, slot: OAuthSlot): Promise<string | undefined>;
  save(server: string, slot: OAuthSlot, value: string): Promise<void>;
  /** False when there was nothing to forget. */
  forget(server: string, slot: OAuthSlot): Promise<boolean>;
}

/** How a sign-in started by `coffer mcp login` is going. */
export type SignInState = 'none' | 'pending' | 'signed-in' | 'failed';

export interface SignInStatus {
  readonly state: SignInState;
  /** Why it failed, safe to show. */
  readonly error?: { readonly code: string; readonly message: string };
}

export interface SignInStart {
  /** Where the user's browser goes to approve Coffer. */
  readonly authorization_url: string;
  /** After this the callback is refused and `coffer mcp login` must start again. */
  readonly expires_at: string;
}

/** A client registered by hand with the authorization server (no dynamic registration). */
export interface PreregisteredClient {
  readonly client_id: string;
  readonly client_secret?: string;
}

/** The sign-in flow as the REST API drives it (implemented in src/upstream/oauth). */
export interface OAuthSignIn {
  /** Starts a browser sign-in for a remote server; throws INVALID_INPUT for a stdio one. */
  start(server: string): Promise<SignInStart>;
  status(server: string): SignInStatus;
  /** Revokes the tokens where the server allows it (RFC 7009), then forgets them. */
  logout(server: string): Promise<{ readonly revoked: boolean; readonly forgotten: boolean }>;
  setClient(server: string, client: PreregisteredClient): Promise<void>;
  /** The id of the client given by hand (`--oauth-client-id`), if any; never its secret. */
  clientId(server: string): Promise<string | undefined>;
  /**
   * A server is being removed: forgets everything kept for it (tokens, clients, a sign-in
   * in progress) and asks its authorization server to revoke the tokens without waiting
   * for the answer. True when it was signed in.
   */
  forget(server: string): Promise<boolean>;
  /**
   * Coffer holds OAuth tokens for `server` that it would present at `url` (tokens are bound
   * to the URL they were signed in for). Whether the server still accepts them is for a
   * connection to find out.
   */
  signedIn(server: string, url: string): Promise<boolean>;
}
