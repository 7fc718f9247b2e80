import {
  auth,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isCofferError, type CofferError } from '../../domain/errors.js';
import type { Clock } from '../../domain/ports.js';
import { unionOfScopes } from './auth-challenge.js';
import { refusedCredentials } from '../refused-credentials.js';
import { authRequired } from './auth-required.js';
import { AuthorizationServerReach } from './authorization-server-reach.js';
import { checkMetadataIssuer } from './issuer-checks.js';
import { boundTo, resourceOf, type OAuthVault, type StoredTokens } from './oauth-vault.js';

/** Refresh this long before the access token expires, so no call meets an expired one. */
export const DEFAULT_REFRESH_SKEW_MS = 60_000;

export interface OAuthClientSettings {
  /** Where the authorization server sends the browser back: the daemon's /oauth/callback. */
  readonly redirectUrl: string;
  /** Every callback URL Coffer may use (one per daemon port), for dynamic registration. */
  readonly redirectUris: readonly string[];
  /** An HTTPS Client ID Metadata Document URL, used where the server supports them. */
  readonly clientMetadataUrl?: string;
  readonly clientName?: string;
  readonly refreshSkewMs?: number;
  readonly fetchFn?: FetchLike;
}

export interface ProviderOptions extends OAuthClientSettings {
  readonly server: string;
  readonly serverUrl: string;
  readonly vault: OAuthVault;
  readonly clock: Clock;
  /**
   * `connect`: used by upstream connections; it never starts a browser sign-in but
   * fails the call with AUTH_REQUIRED. `login`: used by `coffer mcp login`; it ignores
   * stored tokens and hands the authorization URL to `onAuthorizationUrl`.
   */
  readonly mode: 'connect' | 'login';
  /** login mode: the `state` this sign-in is known by. */
  readonly state?: string;
  readonly onAuthorizationUrl?: (url: URL) => void;
  /**
   * connect mode: the server needs a sign-in (never signed in, or refresh refused).
   * `error` is the one this connection then fails with, so whoever hears of the failure
   * later can tell it from a newer one.
   */
  readonly onSignInNeeded?: (server: string, error: CofferError) => void;
  readonly onSignedIn?: (server: string) => void;
}

/**
 * Coffer's OAuthClientProvider for the SDK's HTTP and SSE client transports. The SDK's
 * `auth()` does discovery (RFC 9728, RFC 8414 / OIDC), registration (RFC 7591 or a
 * Client ID Metadata Document), PKCE, the resource parameter and scope selection; this
 * class decides where everything is kept (the vault: keychain, never the database nor
 * the logs) and what "redirect the user" means for a daemon.
 */
export class CofferOAuthProvider implements OAuthClientProvider {
  /** The tokens this provider last handed out, to tell a stale refusal from a real one. */
  private handedOut: StoredTokens | undefined;
  private refreshing = false;
  /** The discovery this provider made itself (a sign-in's start, for its code exchange). */
  private discovered: OAuthDiscoveryState | undefined;
  private readonly reach: AuthorizationServerReach;
  /** Set only when configured: the SDK treats any value as "use a metadata document". */
  readonly clientMetadataUrl?: string;

  constructor(private readonly options: ProviderOptions) {
    if (options.clientMetadataUrl !== undefined) this.clientMetadataUrl = options.clientMetadataUrl;
    this.reach = new AuthorizationServerReach(options.server, new URL(options.serverUrl));
  }

  /** The fetch the SDK's OAuth is to use: an authorization server that is down said so. */
  watchedFetch(base: FetchLike): FetchLike {
    return this.reach.watch(base);
  }

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    // Built apart from the return: SDK v1's type lacks `application_type`, and a variable
    // is not checked for excess properties the way a returned literal is.
    const metadata = {
      client_name: this.options.clientName ?? 'Coffer',
      redirect_uris: [...this.options.redirectUris],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // Coffer's redirect is the daemon's loopback /oauth/callback: a native application
      // (SEP-837; under OIDC an omitted type means "web", which refuses loopback URIs).
      application_type: 'native',
    };
    return metadata;
  }

  state(): string {
    return this.options.state ?? '';
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { vault, server } = this.options;
    return (await vault.get(server, 'preregistered')) ?? (await vault.get(server, 'client'));
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    const { vault, server } = this.options;
    const preregistered = await vault.get(server, 'preregistered');
    // A pre-registered client is only ever stamped with its issuer, never replaced.
    if (preregistered?.client_id === information.client_id)
      await vault.set(server, 'preregistered', information);
    else await vault.set(server, 'client', information);
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.options.mode === 'login') return undefined;
    const { vault, server } = this.options;
    const stored = await this.boundTokens();
    if (stored !== undefined && !this.refreshing && this.isDue(stored)) {
      await this.refreshBeforeExpiry(stored);
      this.handedOut = await vault.get(server, 'tokens');
      return this.handedOut;
    }
    this.handedOut = stored;
    return stored;
  }

  /**
   * The stored tokens if they were obtained for this server's URL. A token's audience is
   * the URL it was signed in for (RFC 8707): once the server's URL has changed (`coffer
   * mcp edit --url`, an import, a server removed and added again under its name), the
   * tokens stay unused, the server needs a sign-in, and the new URL never sees them.
   * Tokens stored before they were bound are bound to the URL they are first used with.
   */
  private async boundTokens(): Promise<StoredTokens | undefined> {
    const { vault, server, serverUrl } = this.options;
    const stored = await vault.get(server, 'tokens');
    if (stored === undefined || !boundTo(stored, serverUrl)) return undefined;
    if (stored.resource !== undefined) return stored;
    await vault.set(server, 'tokens', { ...stored, resource: resourceOf(serverUrl) });
    return vault.get(server, 'tokens');
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const { vault, server, clock } = this.options;
    const expiresIn = tokens.expires_in;
    const stored: StoredTokens = {
      ...tokens,
      ...(expiresIn === undefined ? {} : { expires_at: clock.now().getTime() + expiresIn * 1000 }),
    };
    // A refresh answer may omit the refresh token: keep the one that still works, if it
    // was granted for this URL too.
    const { serverUrl } = this.options;
    const previous = await vault.get(server, 'tokens');
    const keep =
      stored.refresh_token === undefined &&
      previous?.refresh_token !== undefined &&
      boundTo(previous, serverUrl)
        ? { refresh_token: previous.refresh_token }
        : {};
    await vault.set(server, 'tokens', { ...stored, ...keep, resource: resourceOf(serverUrl) });
    this.options.onSignedIn?.(server);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (this.options.mode === 'login') {
      this.options.onAuthorizationUrl?.(authorizationUrl);
      return;
    }
    // A refresh the authorization server was down for ends here too: say that, not "sign in".
    const unreachable = this.reach.take();
    if (unreachable !== undefined) throw unreachable;
    const { server, vault } = this.options;
    const asked = authorizationUrl.searchParams.get('scope');
    const before = vault.rememberedScope(server);
    vault.rememberScope(server, unionOfScopes(before, this.handedOut?.scope, asked) ?? null);
    const error = authRequired(server);
    this.options.onSignInNeeded?.(server, error);
    throw error;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    // Only a real sign-in keeps one: a connection must not clobber a sign-in in progress.
    if (this.options.mode !== 'login') return;
    await this.options.vault.set(this.options.server, 'verifier', { code_verifier: codeVerifier });
  }

  async codeVerifier(): Promise<string> {
    const { vault, server } = this.options;
    const stored = await vault.get(server, 'verifier');
    if (stored === undefined) throw authRequired(server, 'has no sign-in in progress');
    return stored.code_verifier;
  }

  async invalidateCredentials(
    scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery',
  ): Promise<void> {
    const { vault, server } = this.options;
    if (scope === 'tokens') {
      // Another session may have refreshed meanwhile: only drop what was refused.
      const current = vault.peek(server, 'tokens');
      if (current === undefined || current === this.handedOut || this.options.mode === 'login')
        await vault.forget(server, 'tokens');
      return;
    }
    const slots =
      scope === 'all' ? (['tokens', 'client', 'verifier', 'discovery'] as const) : [scope];
    for (const slot of slots) await vault.forget(server, slot);
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    // Before the SDK uses any endpoint the metadata names.
    checkMetadataIssuer(this.options.server, state);
    if (await this.offersNoOAuth(state))
      throw refusedCredentials(
        this.options.server,
        'it answered 401 and offers no OAuth sign-in Coffer could find',
        undefined,
        false,
      );
    this.discovered = state;
    await this.options.vault.set(this.options.server, 'discovery', state);
  }

  /**
   * A connection's 401 from a server that names no OAuth metadata at all, and that Coffer
   * never registered with: a server taking a key in a header, refusing the one it got. The
   * SDK would go on to register at a guessed `/register` and report whatever that answers
   * (a 404 page, `server_error` for `{"error":"unauthorized"}`). A sign-in (`coffer mcp
   * login`) still tries the guessed endpoints, as do refreshes of a server signed in so.
   */
  private async offersNoOAuth(state: OAuthDiscoveryState): Promise<boolean> {
    if (this.options.mode !== 'connect' || this.refreshing) return false;
    if (state.resourceMetadata !== undefined || state.authorizationServerMetadata !== undefined)
      return false;
    return (await this.clientInformation()) === undefined;
  }

  /**
   * What the SDK's `auth()` may reuse instead of discovering. A refresh ahead of expiry
   * reuses the stored discovery, and a sign-in's code exchange the one its start made.
   * Anything else (a 401, a new sign-in) discovers again: the protected resource may now
   * name another authorization server, and the client must then register there and never
   * present the old one's credentials (SEP-2352; the SDK drops credentials stamped with
   * another issuer).
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.refreshing) return this.options.vault.get(this.options.server, 'discovery');
    return this.options.mode === 'login' ? this.discovered : undefined;
  }

  private isDue(tokens: StoredTokens): boolean {
    if (tokens.expires_at === undefined || tokens.refresh_token === undefined) return false;
    const skew = this.options.refreshSkewMs ?? DEFAULT_REFRESH_SKEW_MS;
    return this.options.clock.now().getTime() >= tokens.expires_at - skew;
  }

  /**
   * Refreshes ahead of expiry, once per server however many connections ask. A refusal
   * (revoked refresh token) ends in AUTH_REQUIRED through redirectToAuthorization; a
   * network failure keeps the current token, and the 401 path tries again later.
   */
  private async refreshBeforeExpiry(stored: StoredTokens): Promise<void> {
    const { vault, server, serverUrl, fetchFn } = this.options;
    await vault.refreshOnce(server, async () => {
      if ((await vault.get(server, 'tokens')) !== stored) return;
      this.refreshing = true;
      this.handedOut = stored;
      try {
        await auth(this, { serverUrl, ...(fetchFn === undefined ? {} : { fetchFn }) });
      } catch (error) {
        if (isCofferError(error)) throw error;
      } finally {
        this.refreshing = false;
      }
    });
  }
}
