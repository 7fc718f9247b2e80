import type { SecretBackendInfo, SecretRef } from '../../domain/ports.js';
import type { ApiClient } from '../api-client.js';

/** A server's stored secrets, and where the daemon keeps them. */
export interface StoredSecrets {
  readonly refs: readonly SecretRef[];
  /** "the OS keychain", or the file that stands in for one: what a user is told. */
  readonly where: string;
}

/** How `secrets set` and `mcp remove` name the store: the keychain, or the file instead. */
export function storeName(store: SecretBackendInfo): string {
  return store.backend === 'keychain' ? 'the OS keychain' : (store.location ?? 'a file');
}

/** The secrets stored for a server; undefined when the daemon cannot tell (no keychain). */
async function storedRefs(api: ApiClient, server: string): Promise<StoredSecrets | undefined> {
  try {
    const listing = await api.get<{
      store: SecretBackendInfo;
      secrets: (SecretRef & { stored: boolean })[];
    }>(`/secrets?server=${encodeURIComponent(server)}`);
    return {
      refs: listing.secrets.filter((row) => row.stored),
      where: storeName(listing.store),
    };
  } catch {
    return undefined;
  }
}

/**
 * The secrets the store holds for a server, read before a command that makes the daemon
 * delete some (`mcp remove`, `mcp edit --unset-env`), so the command can say which went
 * and from where. None when the daemon cannot tell: saying nothing is then right.
 */
export async function storedSecretsOf(api: ApiClient, server: string): Promise<StoredSecrets> {
  return (await storedRefs(api, server)) ?? { refs: [], where: 'the OS keychain' };
}

/**
 * Which of a server's secrets have a value stored, as `kind/name` (`env/API_KEY`), for
 * `mcp show`; undefined when the daemon cannot tell.
 */
export async function storedSecretKeys(
  api: ApiClient,
  server: string,
): Promise<ReadonlySet<string> | undefined> {
  const stored = await storedRefs(api, server);
  return stored && new Set(stored.refs.map((ref) => `${ref.kind}/${ref.name}`));
}

/**
 * `  deleted from the OS keychain: env "A", header "B"` (or from the file that stands in
 * for it, named as `secrets set` names it), or nothing for none.
 */
export function deletedLine(
  refs: readonly Pick<SecretRef, 'kind' | 'name'>[],
  where: string,
): string {
  if (refs.length === 0) return '';
  return `  deleted from ${where}: ${refs.map((ref) => `${ref.kind} "${ref.name}"`).join(', ')}\n`;
}
