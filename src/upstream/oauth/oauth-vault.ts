import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { resourceUrlFromServerUrl } from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import type { OAuthCredentialStore, OAuthSlot } from '../../domain/ports.js';

/** Tokens as kept: what the authorization server answered, plus when they expire. */
export type StoredTokens = OAuthTokens & {
  /** Epoch milliseconds; absent when the server gave no `expires_in`. */
  readonly expires_at?: number;
  /**
   * The server URL they were obtained for (`resourceOf`), the only one they are ever
   * presented to. Absent on tokens stored before Coffer bound them.
   */
  readonly resource?: string;
};

/**
 * The resource a server's tokens are for: its URL without a fragment, as the SDK sends
 * it in the RFC 8707 `resource` parameter of the sign-in.
 */
export function resourceOf(serverUrl: string): string {
  try {
    return resourceUrlFromServerUrl(serverUrl).href;
  } catch {
    return serverUrl;
  }
}

/** The tokens are for `serverUrl`: obtained for it, or stored before tokens were bound. */
export function boundTo(tokens: StoredTokens, serverUrl: string): boolean {
  return tokens.resource === undefined || tokens.resource === resourceOf(serverUrl);
}

interface SlotTypes {
  tokens: StoredTokens;
  client: OAuthClientInformationMixed;
  preregistered: OAuthClientInformationMixed;
  verifier: { readonly code_verifier: string };
  discovery: OAuthDiscoveryState;
}

/**
 * The daemon's one view of every server's OAuth credentials: read through from the
 * credential store (keychain) once, then cached in memory, written through on change.
 * Shared by every connection's provider, so a refresh made for one session is used by
 * all, and a refresh runs once per server at a time (a rotated refresh token used
 * twice would be refused, and the server marked as needing sign-in for nothing).
 */
export class OAuthVault {
  private readonly cache = new Map<string, unknown>();
  private readonly refreshes = new Map<string, Promise<void>>();
  private readonly scopes = new Map<string, string>();

  constructor(private readonly store: OAuthCredentialStore) {}

  async get<S extends OAuthSlot>(server: string, slot: S): Promise<SlotTypes[S] | undefined> {
    const key = keyOf(server, slot);
    if (this.cache.has(key)) return this.cache.get(key) as SlotTypes[S] | undefined;
    const text = await this.store.load(server, slot);
    const value = text === undefined ? undefined : parse<SlotTypes[S]>(text);
    // Someone may have written meanwhile: theirs is newer than what was read.
    if (!this.cache.has(key)) this.cache.set(key, value);
    return this.cache.get(key) as SlotTypes[S] | undefined;
  }

  async set<S extends OAuthSlot>(server: string, slot: S, value: SlotTypes[S]): Promise<void> {
    this.cache.set(keyOf(server, slot), value);
    await this.store.save(server, slot, JSON.stringify(value));
  }

  async forget(server: string, slot: OAuthSlot): Promise<boolean> {
    this.cache.set(keyOf(server, slot), undefined);
    return this.store.forget(server, slot);
  }

  /** The cached value as it is now (identity), to tell whether someone replaced it. */
  peek<S extends OAuthSlot>(server: string, slot: S): SlotTypes[S] | undefined {
    return this.cache.get(keyOf(server, slot)) as SlotTypes[S] | undefined;
  }

  /** Runs `work` unless a refresh of `server` is already running, then waits for that one. */
  refreshOnce(server: string, work: () => Promise<void>): Promise<void> {
    const running = this.refreshes.get(server);
    if (running !== undefined) return running;
    const next = work().finally(() => this.refreshes.delete(server));
    this.refreshes.set(server, next);
    return next;
  }

  /** The scope a server last asked for (WWW-Authenticate), so sign-in asks for it too. */
  rememberScope(server: string, scope: string | null): void {
    if (scope === null || scope === '') return;
    this.scopes.set(server, scope);
  }

  rememberedScope(server: string): string | undefined {
    return this.scopes.get(server);
  }
}

function keyOf(server: string, slot: OAuthSlot): string {
  return `${server}\u0000${slot}`;
}

/** A damaged entry reads as absent: the user signs in again rather than being stuck. */
function parse<T>(text: string): T | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}
