import { guardedSecretsOf } from '../credentials/index.js';
import type { SecretStore } from '../domain/ports.js';
import type { ServerDefinition } from '../domain/server-definition.js';
import { SecretGuard } from '../gateway/secret-guard.js';

export interface SecretGuarding {
  readonly guard: SecretGuard;
  /** The store the API writes through: every set or delete invalidates the guard's matcher. */
  readonly secrets: SecretStore;
}

/**
 * Wires the secret guard (issue 20.3): it looks for the secrets the registered servers
 * name, and reads them again after a secret is set or removed (here) or a server is
 * added, changed or removed (the daemon's serversChanged calls `guard.invalidate()`).
 */
export function secretGuarding(
  store: SecretStore,
  servers: () => Promise<readonly ServerDefinition[]>,
  blockCredentials: boolean,
): SecretGuarding {
  const guard = new SecretGuard({ secrets: guardedSecretsOf(store, servers), blockCredentials });
  const secrets: SecretStore = {
    ...store,
    set: async (ref, value) => {
      try {
        await store.set(ref, value);
      } finally {
        guard.invalidate();
      }
    },
    delete: async (ref) => {
      try {
        return await store.delete(ref);
      } finally {
        guard.invalidate();
      }
    },
  };
  return { guard, secrets };
}
