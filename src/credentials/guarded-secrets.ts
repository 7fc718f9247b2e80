import type { GuardedSecrets, SecretStore } from '../domain/ports.js';
import type { KnownSecret } from '../domain/secret-scan.js';
import type { ServerDefinition } from '../domain/server-definition.js';
import { accountOf } from './secret-account.js';
import { secretRefsOf } from './secret-resolver.js';

type Definition = Pick<ServerDefinition, 'name' | 'secret_env' | 'secret_headers'>;

/**
 * The secrets the guard looks for: those the registered servers' definitions name, read
 * from the store. Only referenced secrets are read (one `get` each), so a daemon whose
 * servers name none never touches the keychain. A value stored for several servers is
 * one entry owned by all of them, named `<server>/<kind>/<NAME>` after the first.
 */
export function guardedSecretsOf(
  store: Pick<SecretStore, 'get'>,
  servers: () => Promise<readonly Definition[]>,
): GuardedSecrets {
  return {
    known: async () => {
      const refs = (await servers()).flatMap((definition) => secretRefsOf(definition));
      const byValue = new Map<string, { name: string; owners: string[] }>();
      for (const ref of refs) {
        const value = await store.get(ref);
        if (value === undefined) continue;
        const known = byValue.get(value);
        if (known === undefined) byValue.set(value, { name: accountOf(ref), owners: [ref.server] });
        else if (!known.owners.includes(ref.server)) known.owners.push(ref.server);
      }
      return [...byValue].map(([value, known]): KnownSecret => ({ value, ...known }));
    },
  };
}
