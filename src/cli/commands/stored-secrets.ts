import type { SecretRef } from '../../domain/ports.js';
import type { ApiClient } from '../api-client.js';

/** The secrets stored for a server; undefined when the daemon cannot tell (no keychain). */
async function storedRefs(api: ApiClient, server: string): Promise<SecretRef[] | undefined> {
  try {
    const listing = await api.get<{ secrets: (SecretRef & { stored: boolean })[] }>(
      `/secrets?server=${encodeURIComponent(server)}`,
    );
    return listing.secrets.filter((row) => row.stored);
  } catch {
    return undefined;
  }
}

/**
 * The secrets the keychain holds for a server, read before a command that makes the
 * daemon delete some (`mcp remove`, `mcp edit --unset-env`), so the command can say which
 * went. Empty when the daemon cannot tell: saying nothing is then right.
 */
export async function storedSecretsOf(api: ApiClient, server: string): Promise<SecretRef[]> {
  return (await storedRefs(api, server)) ?? [];
}

/**
 * Which of a server's secrets have a value stored, as `kind/name` (`env/API_KEY`), for
 * `mcp show`; undefined when the daemon cannot tell.
 */
export async function storedSecretKeys(
  api: ApiClient,
  server: string,
): Promise<ReadonlySet<string> | undefined> {
  const refs = await storedRefs(api, server);
  return refs && new Set(refs.map((ref) => `${ref.kind}/${ref.name}`));
}

/** `  deleted from the keychain: env "A", header "B"`, or nothing for none. */
export function deletedLine(refs: readonly Pick<SecretRef, 'kind' | 'name'>[]): string {
  if (refs.length === 0) return '';
  return `  deleted from the keychain: ${refs.map((ref) => `${ref.kind} "${ref.name}"`).join(', ')}\n`;
}
