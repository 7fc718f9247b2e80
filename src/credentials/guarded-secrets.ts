import type {
  GuardedSecrets,
  OAuthCredentialStore,
  OAuthSlot,
  SecretStore,
} from '../domain/ports.js';
import type { KnownSecret } from '../domain/secret-scan.js';
import type { ServerDefinition } from '../domain/server-definition.js';
import { accountOf } from './secret-account.js';
import { secretRefsOf } from './secret-resolver.js';

type Definition = Pick<ServerDefinition, 'name' | 'secret_env' | 'secret_headers' | 'url'>;

/** A value found in the store, before values stored twice are merged. */
interface Found {
  readonly name: string;
  readonly value: string;
  readonly owner: string;
}

/**
 * The OAuth slots and fields the guard looks for: the tokens (`id_token` and the rest say
 * who, not grant access) and the client's secret, registered or given by the user.
 */
export const GUARDED_OAUTH_FIELDS: Readonly<Partial<Record<OAuthSlot, readonly string[]>>> = {
  tokens: ['access_token', 'refresh_token'],
  client: ['client_secret'],
  preregistered: ['client_secret'],
};

/**
 * The secrets the guard looks for: those the registered servers' definitions name, read
 * from the store, and the OAuth tokens and client secrets of remote servers
 * (`<server>/oauth/access_token`, `…/refresh_token`, `…/client_secret`). Only referenced
 * secrets and remote servers' OAuth entries are read (one
 * `get`/`load` each), so a daemon of local servers naming no secret never touches the
 * keychain. A value stored for several servers is one entry owned by all of them, named
 * after the first.
 */
export function guardedSecretsOf(
  store: Pick<SecretStore, 'get'>,
  servers: () => Promise<readonly Definition[]>,
  oauth: Pick<OAuthCredentialStore, 'load'>,
): GuardedSecrets {
  return {
    known: async () => {
      const definitions = await servers();
      const found = await secretsNamed(store, definitions);
      return merged([...found, ...(await oauthSecretsOf(oauth, definitions))]);
    },
  };
}

async function secretsNamed(
  store: Pick<SecretStore, 'get'>,
  definitions: readonly Definition[],
): Promise<Found[]> {
  const found: Found[] = [];
  for (const ref of definitions.flatMap((definition) => secretRefsOf(definition))) {
    const value = await store.get(ref);
    if (value !== undefined) found.push({ name: accountOf(ref), value, owner: ref.server });
  }
  return found;
}

/** Stdio servers never sign in, so their slots are not read. */
async function oauthSecretsOf(
  oauth: Pick<OAuthCredentialStore, 'load'>,
  definitions: readonly Definition[],
): Promise<Found[]> {
  const found: Found[] = [];
  for (const { name: server } of definitions.filter((definition) => definition.url !== undefined))
    for (const [slot, fields] of Object.entries(GUARDED_OAUTH_FIELDS) as [OAuthSlot, string[]][])
      found.push(...fieldValues(server, fields, await oauth.load(server, slot)));
  return found;
}

/** A damaged entry holds nothing to guard (the vault reads it as absent too): never a failure. */
function fieldValues(server: string, fields: readonly string[], text: string | undefined): Found[] {
  if (text === undefined) return [];
  let entry: unknown;
  try {
    entry = JSON.parse(text);
  } catch {
    return [];
  }
  if (entry === null || typeof entry !== 'object') return [];
  const values = entry as Record<string, unknown>;
  return fields.flatMap((field) => {
    const value = values[field];
    return typeof value === 'string' && value !== ''
      ? [{ name: `${server}/oauth/${field}`, value, owner: server }]
      : [];
  });
}

function merged(found: readonly Found[]): KnownSecret[] {
  const byValue = new Map<string, { name: string; owners: string[] }>();
  for (const { name, value, owner } of found) {
    const known = byValue.get(value);
    if (known === undefined) byValue.set(value, { name, owners: [owner] });
    else if (!known.owners.includes(owner)) known.owners.push(owner);
  }
  return [...byValue].map(([value, known]): KnownSecret => ({ value, ...known }));
}
