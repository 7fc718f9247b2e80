import type { CredentialKind } from './credential-shapes.js';
import { CofferError } from './errors.js';
import type { SecretHit } from './secret-scan.js';

/**
 * The refusals of the secret guard (issue 20.3), decided from what the scan found in a
 * call's arguments. Messages name secrets by NAME and credentials by KIND, never values.
 */

/** Throws SECRET_BLOCKED when the arguments hold a stored secret that `server` does not own. */
export function refuseForeignSecrets(hits: readonly SecretHit[], server: string): void {
  const foreign = hits.filter((hit) => !hit.owners.includes(server)).map((hit) => hit.name);
  if (foreign.length === 0) return;
  const names = foreign.join(', ');
  throw new CofferError(
    'SECRET_BLOCKED',
    `The call to ${server} was refused: its arguments contain the stored secret ${names}, which belongs to another server`,
    {
      hint: `remove it from the arguments; if ${server} really needs it, reference it in ${server}'s definition (--secret-env or --secret-header of coffer mcp add)`,
      data: { server, secrets: foreign },
    },
  );
}

/** Throws CREDENTIAL_BLOCKED when blocking is on and the arguments look like credentials. */
export function refuseCredentials(
  kinds: readonly CredentialKind[],
  server: string,
  blocking: boolean,
): void {
  if (!blocking || kinds.length === 0) return;
  throw new CofferError(
    'CREDENTIAL_BLOCKED',
    `The call to ${server} was refused: its arguments look like a credential (${kinds.join(', ')})`,
    {
      hint: 'remove the credential from the arguments, or turn blocking off with COFFER_BLOCK_CREDENTIALS=off',
      data: { server, credentials: [...kinds] },
    },
  );
}

/**
 * What the guard did to one call, as the activity log records it (the `guard` column,
 * comma-separated when a call has more than one).
 */
export const guardEvents = [
  'secret_blocked',
  'credential_flagged',
  'credential_blocked',
  'redacted',
] as const;

export type GuardEvent = (typeof guardEvents)[number];

/** The event a guard refusal stands for, from its error code; undefined for other errors. */
export function guardEventOf(code: string): GuardEvent | undefined {
  if (code === 'SECRET_BLOCKED') return 'secret_blocked';
  if (code === 'CREDENTIAL_BLOCKED') return 'credential_blocked';
  return undefined;
}
