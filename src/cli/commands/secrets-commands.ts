import type { Command } from 'commander';
import { CofferError } from '../../domain/errors.js';
import type { SecretBackendInfo, SecretKind, SecretRef } from '../../domain/ports.js';
import { serverDefinitionSchema } from '../../domain/server-definition.js';
import type { ApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';
import type { OutputStream } from '../output.js';
import { checkName } from './mcp-input.js';
import { readSecretValues } from './secret-input.js';
import { storeName } from './stored-secrets.js';

/** GET /api/v1/secrets: names and state only; the API never answers a value. */
interface SecretRow extends SecretRef {
  readonly stored: boolean;
  readonly referenced: boolean;
}
interface SecretListing {
  readonly store: SecretBackendInfo;
  readonly secrets: SecretRow[];
}

interface RefFlags {
  env?: string;
  header?: string;
}

const names = serverDefinitionSchema.shape;
const nameSchema = {
  env: names.secret_env.unwrap().element,
  header: names.secret_headers.unwrap().element,
} as const;

/** `env "API_TOKEN" of "github"`: how prompts and messages name a secret. */
export function secretLabel(ref: SecretRef): string {
  return `${ref.kind} "${ref.name}" of "${ref.server}"`;
}

/** Checks a secret's name locally, so a typo never starts the daemon. */
export function secretRef(server: string, kind: SecretKind, name: string): SecretRef {
  checkName(server);
  if (!nameSchema[kind].safeParse(name).success)
    throw new CofferError('INVALID_INPUT', `Invalid --${kind} name "${name}"`, {
      hint:
        kind === 'env'
          ? 'an environment variable name is letters, digits and "_", e.g. API_TOKEN'
          : 'a header name is e.g. Authorization or X-Api-Key',
    });
  return { server, kind, name };
}

/** `verb`: the command typed, so its example is one the user can run (`remove`, not `set`). */
function refFromFlags(verb: 'set' | 'remove', server: string, flags: RefFlags): SecretRef {
  if ((flags.env === undefined) === (flags.header === undefined))
    throw new CofferError('INVALID_INPUT', 'Give exactly one of --env NAME or --header NAME', {
      hint: `e.g. \`coffer secrets ${verb} ${server} --env GITHUB_TOKEN\``,
    });
  return flags.env !== undefined
    ? secretRef(server, 'env', flags.env)
    : secretRef(server, 'header', flags.header ?? '');
}

/** Said loudly, once per command: the fallback file is not encrypted. */
export function warnIfFileBackend(store: SecretBackendInfo, stderr: OutputStream): void {
  if (store.backend !== 'file') return;
  stderr.write(
    `coffer: warning: no OS keychain in use (${store.reason ?? 'unknown reason'}); ` +
      `secrets are kept in ${store.location ?? 'secrets.json'} (mode 0600, not encrypted)\n`,
  );
}

/** Stores values already read; says where they went. Used by `mcp add` too. */
export async function storeSecrets(
  context: CliContext,
  api: ApiClient,
  refs: readonly SecretRef[],
  values: readonly string[],
): Promise<void> {
  for (const [index, ref] of refs.entries())
    await api.post('/secrets', { ...ref, value: values[index] ?? '' });
  if (refs.length === 0) return;
  const { store } = await api.get<SecretListing>('/secrets');
  const where = storeName(store);
  for (const ref of refs) context.stdout.write(`Stored ${secretLabel(ref)} in ${where}\n`);
  warnIfFileBackend(store, context.stderr);
}

function renderRows(rows: readonly SecretRow[]): string {
  const header = ['server', 'kind', 'name', 'value', 'used by definition'];
  const table = rows.map((row) => [
    row.server,
    row.kind,
    row.name,
    row.stored ? 'stored' : 'MISSING',
    row.referenced ? 'yes' : 'no',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...table.map((cells) => cells[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...table.map(line)].join('\n') + '\n';
}

async function listSecrets(context: CliContext, options: { server?: string; json?: boolean }) {
  if (options.server !== undefined) checkName(options.server);
  const api = await context.api();
  const query = options.server === undefined ? '' : `?server=${encodeURIComponent(options.server)}`;
  const listing = await api.get<SecretListing>(`/secrets${query}`);
  if (options.json === true) {
    context.stdout.write(`${JSON.stringify(listing, null, 2)}\n`);
    return;
  }
  warnIfFileBackend(listing.store, context.stderr);
  if (listing.secrets.length === 0) {
    context.stdout.write('No secrets. Set one with `coffer secrets set <server> --env NAME`.\n');
    return;
  }
  context.stdout.write(renderRows(listing.secrets));
}

function secretPath(ref: SecretRef): string {
  return `/secrets/${[ref.server, ref.kind, ref.name].map(encodeURIComponent).join('/')}`;
}

/** `coffer secrets list | set | remove`: values go in, names come out. */
export function registerSecretsCommands(program: Command, context: CliContext): void {
  const secrets = program
    .command('secrets')
    .description('keep the secrets of servers in the OS keychain (names are shown, never values)');

  secrets
    .command('list')
    .description('list stored and referenced secrets by name')
    .option('--server <name>', 'only the secrets of this server')
    .option('--json', 'print JSON')
    .action((options: { server?: string; json?: boolean }) => listSecrets(context, options));

  secrets
    .command('set')
    .description('store a secret; the value is read from a hidden prompt or with --from-stdin')
    .argument('<server>', 'the server that uses it')
    .option('--env <NAME>', 'an environment variable of a local server')
    .option('--header <Name>', 'an HTTP header of a remote server, e.g. Authorization')
    .option('--from-stdin', 'read the value from stdin instead of a prompt')
    .action(async (server: string, flags: RefFlags & { fromStdin?: boolean }) => {
      const ref = refFromFlags('set', server, flags);
      const values = await readSecretValues(
        [secretLabel(ref)],
        flags.fromStdin === true,
        context.stderr,
      );
      await storeSecrets(context, await context.api(), [ref], values);
    });

  secrets
    .command('remove')
    .description('delete a stored secret (the server keeps naming it until you change it)')
    .argument('<server>', 'the server that used it')
    .option('--env <NAME>', 'an environment variable')
    .option('--header <Name>', 'an HTTP header')
    .action(async (server: string, flags: RefFlags) => {
      const ref = refFromFlags('remove', server, flags);
      const api = await context.api();
      await api.delete(secretPath(ref));
      context.stdout.write(`Removed ${secretLabel(ref)}\n`);
    });
}
