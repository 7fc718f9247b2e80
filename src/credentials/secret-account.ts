import type { SecretKind, SecretRef } from '../domain/ports.js';

/**
 * How a secret is named in the keychain: service `coffer`, account
 * `<server>/env/<NAME>` or `<server>/header/<Name>`. Server, env and header names
 * cannot contain "/", so an account splits back into exactly one ref.
 */
export const KEYCHAIN_SERVICE = 'coffer';

const kinds: ReadonlySet<string> = new Set<SecretKind>(['env', 'header']);

export function accountOf(ref: SecretRef): string {
  return `${ref.server}/${ref.kind}/${ref.name}`;
}

/** undefined for accounts Coffer did not write (or the probe's). */
export function refOf(account: string): SecretRef | undefined {
  const parts = account.split('/');
  if (parts.length !== 3) return undefined;
  const [server, kind, name] = parts;
  if (server === undefined || kind === undefined || name === undefined) return undefined;
  if (server === '' || name === '' || !kinds.has(kind)) return undefined;
  return { server, kind: kind as SecretKind, name };
}

/** `env "API_TOKEN"` / `header "Authorization"`: how messages name a secret. */
export function describeRef(ref: Pick<SecretRef, 'kind' | 'name'>): string {
  return `${ref.kind} "${ref.name}"`;
}

/** The command that sets a secret, for hints. */
export function setCommandFor(ref: SecretRef): string {
  return `coffer secrets set ${ref.server} --${ref.kind} ${ref.name}`;
}
