import type { GuardedSecrets, OAuthCredentialStore, SecretStore } from '../domain/ports.js';
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

/** The token fields the guard looks for; `id_token` and the rest say who, not grant access. */
const tokenFields = ['access_token', 'refresh_token'] as const;

/**
 * The secrets the guard looks for: those the registered servers' definitions name, read
 * from the store, and the OAuth tokens of remote servers (`<server>/oauth/access_token`,
 * `…/refresh_token`). Only referenced secrets and remote servers' tokens are read (one
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
      return merged([...found, ...(await tokensOf(oauth, definitions))]);
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
async function tokensOf(
  oauth: Pick<OAuthCredentialStore, 'load'>,
  definitions: readonly Definition[],
): Promise<Found[]> {
  const found: Found[] = [];
  for (const { name: server } of definitions.filter((definition) => definition.url !== undefined))
    found.push(...tokenValues(server, await oauth.load(server, 'tokens')));
  return found;
}

/** A damaged entry holds nothing to guard (the vault reads it as absent too): never a failure. */
function tokenValues(server: string, text: string | undefined): Found[] {
  if (text === undefined) return [];
  let tokens: unknown;
  try {
    tokens = JSON.parse(text);
  } catch {
    return [];
  }
  if (tokens === null || typeof tokens !== 'object') return [];
  const fields = tokens as Record<string, unknown>;
  return tokenFields.flatMap((field) => {
    const value = fields[field];
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
