import type { SecretRef, SecretStore } from '../domain/ports.js';
import { secretKey, secretRefsOf, type ServerRecord } from '../domain/server-definition.js';
import type { ApiServices } from './api-services.js';

/**
 * What a removed server leaves in the keychain goes with it: every secret stored under
 * its name (named by its definition or left over from an earlier one) and its OAuth
 * sign-in. Otherwise a server added again under the name would silently inherit them,
 * and the keychain would keep credentials nothing uses. Best effort, after the server
 * is gone: a keychain that refuses is logged, and `coffer secrets list` still shows what
 * it kept ("not used by any server") for `coffer secrets remove`.
 */
export async function forgetCredentials(
  services: ApiServices,
  record: ServerRecord,
): Promise<void> {
  const { secrets, oauth } = services;
  await bestEffort(services, record, async () => {
    if (secrets === undefined) return;
    for (const ref of await storedUnder(secrets, record)) await secrets.delete(ref);
  });
  if (oauth !== undefined && record.transport !== 'stdio')
    await bestEffort(services, record, () => oauth.forget(record.name));
}

/**
 * A change that drops a secret from the definition (`coffer mcp edit --unset-env`, a
 * local server made remote) deletes its stored value, and a remote server made local
 * forgets its sign-in: nothing would use them any more. Returns the secrets deleted, for
 * the activity log to say each, as `coffer secrets remove` would.
 */
export async function forgetDroppedCredentials(
  services: ApiServices,
  before: ServerRecord,
  after: ServerRecord,
): Promise<SecretRef[]> {
  const { secrets, oauth } = services;
  const kept = new Set(secretRefsOf(after).map(secretKey));
  const dropped = secretRefsOf(before).filter((ref) => !kept.has(secretKey(ref)));
  const deleted: SecretRef[] = [];
  if (secrets !== undefined && dropped.length > 0)
    await bestEffort(services, before, async () => {
      for (const ref of dropped) if (await secrets.delete(ref)) deleted.push(ref);
    });
  if (oauth !== undefined && before.transport !== 'stdio' && after.transport === 'stdio')
    await bestEffort(services, before, () => oauth.forget(before.name));
  return deleted;
}

async function bestEffort(
  services: ApiServices,
  record: ServerRecord,
  work: () => Promise<unknown>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    services.logger?.warn(
      { err: error, server: record.name },
      'could not delete credentials the server no longer uses from the keychain',
    );
  }
}

/** The server's stored secrets; where the keychain cannot be listed, the ones it names. */
async function storedUnder(store: SecretStore, record: ServerRecord): Promise<SecretRef[]> {
  try {
    return (await store.list()).filter((ref) => ref.server === record.name);
  } catch {
    return secretRefsOf(record);
  }
}
