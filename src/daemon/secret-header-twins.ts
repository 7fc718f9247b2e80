import { createHash } from 'node:crypto';
import type { SecretStore } from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';

/** Each secret header's value of a server, as a digest; undefined: not stored. */
type HeaderDigests = ReadonlyMap<string, string | undefined>;

/**
 * Two remote servers at one URL with the same secret header names may be two accounts of
 * one service (a work and a personal token): not one server served twice. Their values
 * are in the keychain, so the daemon compares them here, as digests held in memory for
 * one report and never shown. Returns whether two servers carry the same secret header
 * values; a keychain that cannot be read counts them the same (the warning stays).
 */
export async function sameSecretHeaders(
  records: readonly ServerRecord[],
  get: SecretStore['get'] | undefined,
): Promise<(a: ServerRecord, b: ServerRecord) => boolean> {
  if (get === undefined) return () => true;
  const digests = new Map<string, HeaderDigests>();
  try {
    for (const record of records)
      if (record.enabled && record.secret_headers.length > 0)
        digests.set(record.name, await headerDigests(record, get));
  } catch {
    return () => true;
  }
  return (a, b) => sameDigests(digests.get(a.name), digests.get(b.name));
}

async function headerDigests(record: ServerRecord, get: SecretStore['get']) {
  const digests = new Map<string, string | undefined>();
  for (const name of record.secret_headers) {
    const value = await get({ server: record.name, kind: 'header', name });
    const digest =
      value === undefined ? undefined : createHash('sha256').update(value).digest('hex');
    digests.set(name.toLowerCase(), digest);
  }
  return digests;
}

function sameDigests(a: HeaderDigests | undefined, b: HeaderDigests | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.size === b.size && [...a].every(([name, digest]) => b.get(name) === digest);
}
