import { randomBytes } from 'node:crypto';
import { auth, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { CofferError, isCofferError } from '../../domain/errors.js';
import {
  oauthSlots,
  type Clock,
  type OAuthSignIn,
  type PreregisteredClient,
  type SignInStart,
  type SignInStatus,
} from '../../domain/ports.js';
import type { ServerDefinition } from '../../domain/server-definition.js';
import { probeChallenge } from './auth-challenge.js';
import { loginCommand } from './auth-required.js';
import { responseIssuerProblem } from './issuer-checks.js';
import {
  CofferOAuthProvider,
  type OAuthClientSettings,
  type ProviderOptions,
} from './coffer-oauth-provider.js';
import { boundTo, type OAuthVault } from './oauth-vault.js';
import { revokeTokens, type RevocationInput } from './token-revocation.js';
import { errorText } from '../error-text.js';
import { networkProblem } from '../network-problem.js';

/** How long the browser has to come back to /oauth/callback. */
export const DEFAULT_SIGN_IN_TTL_MS = 10 * 60_000;

export interface SignInFlowOptions extends OAuthClientSettings {
  readonly vault: OAuthVault;
  readonly clock: Clock;
  /** The server's definition; undefined when no server has that name. */
  readonly lookup: (server: string) => Promise<ServerDefinition | undefined>;
  readonly ttlMs?: number;
  /** A sign-in finished: tokens are stored (the daemon clears "needs sign-in", drops caches). */
  readonly onSignedIn?: (server: string) => void;
  readonly onSignedOut?: (server: string) => void;
}

export type ProviderHooks = Pick<
  ProviderOptions,
  'mode' | 'state' | 'onAuthorizationUrl' | 'onSignInNeeded' | 'onSignedIn'
>;

interface Pending {
  readonly server: string;
  readonly serverUrl: string;
  readonly provider: CofferOAuthProvider;
  readonly expiresAt: number;
  /** What this sign-in discovered: the issuer its response must come from. */
  readonly discovery: OAuthDiscoveryState | undefined;
}

/** What the callback page tells the user. */
export interface CallbackOutcome {
  readonly ok: boolean;
  readonly server?: string;
  readonly message: string;
}

/**
 * `coffer mcp login`: starts an authorization code flow (PKCE) whose redirect comes
 * back to the daemon, and finishes it when the browser arrives at /oauth/callback with
 * the right `state` (one-time, expiring). The verifier is kept in the keychain.
 */
export class OAuthSignInFlow implements OAuthSignIn {
  private readonly pending = new Map<string, Pending>();
  private readonly outcomes = new Map<string, SignInStatus>();
  /** Servers whose browser came back and whose code is being exchanged: still pending. */
  private readonly exchanging = new Set<string>();

  constructor(private readonly options: SignInFlowOptions) {}

  async start(server: string): Promise<SignInStart> {
    const definition = await this.remote(server);
    const url = definition.url ?? '';
    this.dropExpired();
    for (const [state, entry] of this.pending)
      if (entry.server === server) this.pending.delete(state);
    const state = randomBytes(24).toString('base64url');
    let captured: URL | undefined;
    const provider = this.provider(definition, {
      mode: 'login',
      state,
      onAuthorizationUrl: (found) => (captured = found),
    });
    const challenge = await this.challengeFor(definition);
    try {
      const fetchFn = provider.watchedFetch(this.options.fetchFn ?? fetch);
      await auth(provider, { serverUrl: url, ...challenge, fetchFn });
    } catch (error) {
      throw this.startFailure(server, error);
    }
    if (captured === undefined)
      throw new CofferError('UPSTREAM_UNAVAILABLE', `Server "${server}" gave no authorization URL`);
    const expiresAt =
      this.options.clock.now().getTime() + (this.options.ttlMs ?? DEFAULT_SIGN_IN_TTL_MS);
    const discovery = await provider.discoveryState();
    this.pending.set(state, { server, serverUrl: url, provider, expiresAt, discovery });
    this.outcomes.set(server, { state: 'pending' });
    return { authorization_url: captured.href, expires_at: new Date(expiresAt).toISOString() };
  }

  status(server: string): SignInStatus {
    this.dropExpired();
    const outcome = this.outcomes.get(server) ?? { state: 'none' };
    const waiting =
      this.exchanging.has(server) ||
      [...this.pending.values()].some((entry) => entry.server === server);
    if (outcome.state !== 'pending' || waiting) return outcome;
    const message = `The sign-in to "${server}" expired before the browser came back`;
    return { state: 'failed', error: { code: 'AUTH_REQUIRED', message } };
  }

  /** The browser came back. `state` is checked, used once, and must not have expired. */
  async complete(query: URLSearchParams): Promise<CallbackOutcome> {
    this.dropExpired();
    const state = query.get('state') ?? '';
    const entry = this.pending.get(state);
    if (entry === undefined)
      return {
        ok: false,
        message:
          'This sign-in link is unknown, already used or expired. Run `coffer mcp login <name>` again.',
      };
    this.pending.delete(state);
    const { server } = entry;
    // Checked first: an answer from another issuer (a mix-up) is not read any further.
    const mixUp = responseIssuerProblem(query.get('iss'), entry.discovery);
    if (mixUp !== undefined) return this.fail(server, `Sign-in to "${server}" refused: ${mixUp}.`);
    const refused = query.get('error');
    const code = query.get('code');
    if (refused !== null || code === null) {
      const why =
        refused === null ? 'no authorization code came back' : `the server answered "${refused}"`;
      return this.fail(server, `Sign-in to "${server}" did not complete: ${why}.`);
    }
    // The state is spent, but until the exchange ends `status` must still say pending (a
    // slow token endpoint is not an expired sign-in).
    this.exchanging.add(server);
    try {
      await auth(entry.provider, {
        serverUrl: entry.serverUrl,
        authorizationCode: code,
        ...this.fetchOption(),
      });
      await this.options.vault.forget(server, 'verifier');
    } catch (error) {
      return this.fail(
        server,
        `Sign-in to "${server}" failed when exchanging the code: ${errorText(error)}.`,
      );
    } finally {
      this.exchanging.delete(server);
    }
    this.outcomes.set(server, { state: 'signed-in' });
    this.options.onSignedIn?.(server);
    return {
      ok: true,
      server,
      message: `Coffer is signed in to "${server}". You can close this tab.`,
    };
  }

  async logout(server: string): Promise<{ revoked: boolean; forgotten: boolean }> {
    await this.remote(server);
    const { vault } = this.options;
    const revocation = await this.revocationOf(server);
    const { tokens } = revocation;
    const revoked = await revokeTokens(revocation);
    const forgotten = await vault.forget(server, 'tokens');
    await vault.forget(server, 'verifier');
    this.outcomes.delete(server);
    this.options.onSignedOut?.(server);
    return { revoked, forgotten: forgotten || tokens !== undefined };
  }

  async signedIn(server: string, url: string): Promise<boolean> {
    const tokens = await this.options.vault.get(server, 'tokens');
    // Tokens from before they were bound go to the URL they are next used with.
    return tokens !== undefined && boundTo(tokens, url);
  }

  async forget(server: string): Promise<boolean> {
    for (const [state, entry] of this.pending)
      if (entry.server === server) this.pending.delete(state);
    this.outcomes.delete(server);
    const revocation = await this.revocationOf(server);
    for (const slot of oauthSlots) await this.options.vault.forget(server, slot);
    // Not awaited: removing a server must not wait on an authorization server that may
    // be slow or gone (revocation gives up after 15 s and never throws).
    if (revocation.tokens !== undefined) void revokeTokens(revocation);
    return revocation.tokens !== undefined;
  }

  async setClient(server: string, client: PreregisteredClient): Promise<void> {
    await this.remote(server);
    const { vault } = this.options;
    await vault.set(server, 'preregistered', {
      client_id: client.client_id,
      ...(client.client_secret === undefined ? {} : { client_secret: client.client_secret }),
    });
    // Tokens and a registration from another client must not be presented with this one.
    await vault.forget(server, 'client');
    await vault.forget(server, 'tokens');
  }

  async clientId(server: string): Promise<string | undefined> {
    return (await this.options.vault.get(server, 'preregistered'))?.client_id;
  }

  /** A provider for `definition`: connect mode for upstream connections, login for sign-in. */
  provider(definition: ServerDefinition, hooks: ProviderHooks): CofferOAuthProvider {
    const { vault, clock, lookup, ttlMs, onSignedIn, onSignedOut, ...settings } = this.options;
    void [lookup, ttlMs, onSignedIn, onSignedOut];
    return new CofferOAuthProvider({
      ...settings,
      ...hooks,
      server: definition.name,
      serverUrl: definition.url ?? '',
      vault,
      clock,
    });
  }

  private async challengeFor(definition: ServerDefinition) {
    const scope = this.options.vault.rememberedScope(definition.name);
    if (scope !== undefined) return { scope };
    return probeChallenge(definition.url ?? '', definition.headers, this.options.fetchFn);
  }

  /** What a revocation of `server`'s tokens needs, read before they are forgotten. */
  private async revocationOf(server: string): Promise<RevocationInput> {
    const { vault } = this.options;
    return {
      discovery: await vault.get(server, 'discovery'),
      client: (await vault.get(server, 'preregistered')) ?? (await vault.get(server, 'client')),
      tokens: await vault.get(server, 'tokens'),
      ...this.fetchOption(),
    };
  }

  private async remote(server: string): Promise<ServerDefinition> {
    const definition = await this.options.lookup(server);
    if (definition === undefined)
      throw new CofferError('SERVER_NOT_FOUND', `No server named "${server}"`, {
        hint: 'see `coffer mcp list` for the registered servers',
        data: { server },
      });
    if (definition.transport === 'stdio')
      throw new CofferError(
        'INVALID_INPUT',
        `Server "${server}" is a local (stdio) server: it has no OAuth sign-in`,
      );
    return definition;
  }

  private fail(server: string, message: string): CallbackOutcome {
    this.outcomes.set(server, { state: 'failed', error: { code: 'AUTH_REQUIRED', message } });
    return { ok: false, server, message: `${message} Run \`${loginCommand(server)}\` again.` };
  }

  private startFailure(server: string, error: unknown): CofferError {
    if (isCofferError(error)) return error;
    const unreachable = networkProblem(error);
    if (unreachable !== undefined)
      return new CofferError(
        'UPSTREAM_UNAVAILABLE',
        `Could not start the sign-in to "${server}": it could not be reached: ${unreachable}`,
        {
          hint: `check that it is running and its URL (\`coffer mcp show ${server}\`)`,
          cause: error,
        },
      );
    return new CofferError(
      'UPSTREAM_UNAVAILABLE',
      `Could not start the sign-in to "${server}": ${errorText(error)}`,
      { hint: 'check the server URL and that it supports OAuth (MCP authorization)', cause: error },
    );
  }

  private dropExpired(): void {
    const now = this.options.clock.now().getTime();
    for (const [state, entry] of this.pending)
      if (entry.expiresAt <= now) this.pending.delete(state);
  }

  private fetchOption() {
    return this.options.fetchFn === undefined ? {} : { fetchFn: this.options.fetchFn };
  }
}
