import { CofferError } from '../domain/errors.js';
import type { SecretRef, SecretStore } from '../domain/ports.js';
import type { ServerDefinition } from '../domain/server-definition.js';
import { describeRef, setCommandFor } from './secret-account.js';

/** What an upstream gets on top of its definition: never stored, never logged. */
export interface ResolvedSecrets {
  readonly extraEnv: Record<string, string>;
  readonly extraHeaders: Record<string, string>;
}

/** The secrets a definition names, env first, each once. */
export function secretRefsOf(
  definition: Pick<ServerDefinition, 'name' | 'secret_env' | 'secret_headers'>,
): SecretRef[] {
  const server = definition.name;
  return [
    ...[...new Set(definition.secret_env)].map((name) => ({ server, kind: 'env' as const, name })),
    ...[...new Set(definition.secret_headers)].map((name) => ({
      server,
      kind: 'header' as const,
      name,
    })),
  ];
}

function missingError(server: string, missing: readonly SecretRef[]): CofferError {
  const what = missing.map(describeRef).join(', ');
  const commands = missing.map((ref) => `\`${setCommandFor(ref)}\``).join(' and ');
  const message =
    missing.length === 1
      ? `Server "${server}" needs the secret ${what}, which is not set`
      : `Server "${server}" needs secrets that are not set: ${what}`;
  return new CofferError('SECRET_NOT_FOUND', message, {
    hint: `set ${missing.length === 1 ? 'it' : 'them'} with ${commands}`,
    data: { server, missing: missing.map(({ kind, name }) => ({ kind, name })) },
  });
}

/**
 * The connector's `resolveSecrets`: reads the definition's secrets from the store when
 * an upstream is spawned or dialled, and nowhere else. A server without secrets never
 * touches the store (so never triggers the keychain probe). Every missing secret is
 * named in one SECRET_NOT_FOUND, with the command that sets it.
 */
export function createSecretResolver(
  store: SecretStore,
): (definition: ServerDefinition) => Promise<ResolvedSecrets> {
  return async (definition) => {
    const refs = secretRefsOf(definition);
    const resolved: ResolvedSecrets = { extraEnv: {}, extraHeaders: {} };
    if (refs.length === 0) return resolved;
    const values = await Promise.all(refs.map((ref) => store.get(ref)));
    const missing = refs.filter((_, index) => values[index] === undefined);
    if (missing.length > 0) throw missingError(definition.name, missing);
    refs.forEach((ref, index) => {
      const target = ref.kind === 'env' ? resolved.extraEnv : resolved.extraHeaders;
      target[ref.name] = values[index] ?? '';
    });
    return resolved;
  };
}
