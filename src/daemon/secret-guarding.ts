import { GUARDED_OAUTH_FIELDS, guardedSecretsOf } from '../credentials/index.js';
import type { OAuthCredentialStore, OAuthSlot, SecretStore } from '../domain/ports.js';
import type { ServerDefinition } from '../domain/server-definition.js';
import { SecretGuard } from '../gateway/secret-guard.js';

export interface SecretGuarding {
  readonly guard: SecretGuard;
  /** The store the API writes through: every set or delete invalidates the guard's matcher. */
  readonly secrets: SecretStore;
  /** The OAuth store the vault writes through: a change of tokens invalidates it too. */
  readonly oauth: OAuthCredentialStore;
}

/**
 * Wires the secret guard (issue 20.3): it looks for the secrets the registered servers
 * name and the OAuth tokens of remote ones, and reads them again after a secret is set
 * or removed, or tokens are saved or forgotten (sign-in, refresh, logout: here), or a
 * server is added, changed or removed (the daemon's serversChanged calls
 * `guard.invalidate()`).
 */
export function secretGuarding(
  store: SecretStore,
  oauthStore: OAuthCredentialStore,
  servers: () => Promise<readonly ServerDefinition[]>,
  blockCredentials: boolean,
): SecretGuarding {
  const guard = new SecretGuard({
    secrets: guardedSecretsOf(store, servers, oauthStore),
    blockCredentials,
  });
  // After the write, even a failed one (it may have half happened): a matcher built
  // meanwhile read the old value and is dropped.
  const invalidating = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } finally {
      guard.invalidate();
    }
  };
  const secrets: SecretStore = {
    ...store,
    set: (ref, value) => invalidating(() => store.set(ref, value)),
    delete: (ref) => invalidating(() => store.delete(ref)),
  };
  // Only some slots hold what the guard looks for; the others change without it.
  const guarded = (slot: OAuthSlot) => GUARDED_OAUTH_FIELDS[slot] !== undefined;
  const oauth: OAuthCredentialStore = {
    load: (server, slot) => oauthStore.load(server, slot),
    save: (server, slot, value) =>
      guarded(slot)
        ? invalidating(() => oauthStore.save(server, slot, value))
        : oauthStore.save(server, slot, value),
    forget: (server, slot) =>
      guarded(slot)
        ? invalidating(() => oauthStore.forget(server, slot))
        : oauthStore.forget(server, slot),
  };
  return { guard, secrets, oauth };
}
