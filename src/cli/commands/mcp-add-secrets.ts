import { CofferError } from '../../domain/errors.js';
import type { SecretRef } from '../../domain/ports.js';
import type { ServerDefinition } from '../../domain/server-definition.js';
import { fillInNote, isSecret } from '../../agents/secret-detection.js';
import type { ApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';
import { readSecretValues } from './secret-input.js';
import { secretLabel, secretRef, storeSecrets } from './secrets-commands.js';

/**
 * `coffer mcp add|edit … --secret-env NAME --secret-header Name [--from-stdin]`: the
 * definition names the secrets, the values go to the keychain. Values are read before
 * anything is sent, so a cancelled prompt registers and changes nothing.
 */
export interface AddSecretFlags {
  readonly secretEnv: readonly string[];
  readonly secretHeader: readonly string[];
  readonly fromStdin?: boolean;
}

export interface AddSecrets {
  /** The definition with its secret names added. */
  readonly definition: ServerDefinition;
  /** What became of values given plainly that are secrets (see `plainSecrets`). */
  readonly notes: readonly string[];
  /** Stores the values once the server exists (or has its new definition). */
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

interface PlainSecrets {
  readonly definition: ServerDefinition;
  /** Secrets given as --env or --header values: stored like --secret-env ones. */
  readonly given: readonly { readonly ref: SecretRef; readonly value: string }[];
  /** Secrets whose value only stands in for one: named, nothing stored. */
  readonly standIns: readonly SecretRef[];
  readonly notes: readonly string[];
}

/**
 * `--env GITHUB_TOKEN=ghp_…`, as a server's README writes it: judged as an agent import
 * judges a value (by its name or its shape, src/agents/secret-detection.ts, which covers
 * every shape the server store refuses as a plain value), a secret goes to the keychain
 * instead of the server's definition, which the database keeps.
 */
function plainSecrets(definition: ServerDefinition): PlainSecrets {
  const env = { ...definition.env };
  const headers = { ...definition.headers };
  const given: { ref: SecretRef; value: string }[] = [];
  const standIns: SecretRef[] = [];
  const notes: string[] = [];
  const sort = (kind: 'env' | 'header', values: Record<string, string>) => {
    for (const [name, value] of Object.entries(values)) {
      const ref = { server: definition.name, kind, name };
      const fillIn = fillInNote(kind, name, value, new Set());
      if (fillIn !== undefined) {
        standIns.push(ref);
        notes.push(fillIn);
      } else if (!isSecret(name, value, new Set())) continue;
      else {
        given.push({ ref, value });
        notes.push(
          `${kind} ${name} looks like a secret: kept in the keychain, not in the server's definition`,
        );
      }
      delete values[name];
    }
  };
  sort('env', env);
  sort('header', headers);
  return { definition: { ...definition, env, headers }, given, standIns, notes };
}

export async function readAddSecrets(
  context: CliContext,
  definition: ServerDefinition,
  flags: AddSecretFlags,
): Promise<AddSecrets> {
  checkApplies(definition, flags);
  const plain = plainSecrets(definition);
  const refs: SecretRef[] = [
    ...[...new Set(flags.secretEnv)].map((name) => secretRef(definition.name, 'env', name)),
    ...[...new Set(flags.secretHeader)].map((name) => secretRef(definition.name, 'header', name)),
  ];
  const prompted = await readSecretValues(
    refs.map(secretLabel),
    flags.fromStdin === true,
    context.stderr,
  );
  refs.push(...plain.given.map((secret) => secret.ref));
  const values = [...prompted, ...plain.given.map((secret) => secret.value)];
  const named = [...refs, ...plain.standIns];
  // Names the definition has already (an edited server's) stay beside the new ones.
  const names = (kind: SecretRef['kind'], had: readonly string[]) => [
    ...new Set([...had, ...named.filter((ref) => ref.kind === kind).map((ref) => ref.name)]),
  ];
  return {
    definition: {
      ...plain.definition,
      secret_env: names('env', definition.secret_env),
      secret_headers: names('header', definition.secret_headers),
    },
    notes: plain.notes,
    store: (api) => storeSecrets(context, api, refs, values),
  };
}
