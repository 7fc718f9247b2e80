import { CofferError } from '../../domain/errors.js';
import type { SecretRef } from '../../domain/ports.js';
import type { ServerDefinition } from '../../domain/server-definition.js';
import type { ApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';
import { readSecretValues } from './secret-input.js';
import { secretLabel, secretRef, storeSecrets } from './secrets-commands.js';

/**
 * `coffer mcp add … --secret-env NAME --secret-header Name [--from-stdin]`: the
 * definition names the secrets, the values go to the keychain. Values are read before
 * anything is sent (a cancelled prompt registers nothing), and a server whose secrets
 * could not be stored is removed again, so `add` is all or nothing.
 */
export interface AddSecretFlags {
  readonly secretEnv: readonly string[];
  readonly secretHeader: readonly string[];
  readonly fromStdin?: boolean;
}

export interface AddSecrets {
  /** The definition with its secret names added. */
  readonly definition: ServerDefinition;
  /** Stores the values once the server exists; removes the server if that fails. */
  store(api: ApiClient): Promise<void>;
}

function invalid(message: string, hint?: string): CofferError {
  return new CofferError('INVALID_INPUT', message, hint === undefined ? {} : { hint });
}

function checkApplies(definition: ServerDefinition, flags: AddSecretFlags): void {
  const local = definition.transport === 'stdio';
  if (!local && flags.secretEnv.length > 0)
    throw invalid('--secret-env applies to local (stdio) servers; use --secret-header for --url');
  if (local && flags.secretHeader.length > 0)
    throw invalid('--secret-header applies to --url servers; use --secret-env for local ones');
  const both = flags.secretEnv.find((name) => name in definition.env);
  if (both !== undefined)
    throw invalid(`"${both}" is given both as --env and --secret-env`, 'keep only --secret-env');
  const header = flags.secretHeader.find((name) =>
    Object.keys(definition.headers).some((given) => given.toLowerCase() === name.toLowerCase()),
  );
  if (header !== undefined)
    throw invalid(`"${header}" is given both as --header and --secret-header`);
  if (flags.fromStdin === true && flags.secretEnv.length + flags.secretHeader.length === 0)
    throw invalid('--from-stdin reads secret values: give --secret-env or --secret-header too');
}

export async function readAddSecrets(
  context: CliContext,
  definition: ServerDefinition,
  flags: AddSecretFlags,
): Promise<AddSecrets> {
  checkApplies(definition, flags);
  const refs: SecretRef[] = [
    ...[...new Set(flags.secretEnv)].map((name) => secretRef(definition.name, 'env', name)),
    ...[...new Set(flags.secretHeader)].map((name) => secretRef(definition.name, 'header', name)),
  ];
  const values = await readSecretValues(
    refs.map(secretLabel),
    flags.fromStdin === true,
    context.stderr,
  );
  return {
    definition: {
      ...definition,
      secret_env: refs.filter((ref) => ref.kind === 'env').map((ref) => ref.name),
      secret_headers: refs.filter((ref) => ref.kind === 'header').map((ref) => ref.name),
    },
    store: async (api) => {
      try {
        await storeSecrets(context, api, refs, values);
      } catch (error) {
        await api.delete(`/servers/${encodeURIComponent(definition.name)}`).catch(() => undefined);
        throw error;
      }
    },
  };
}
