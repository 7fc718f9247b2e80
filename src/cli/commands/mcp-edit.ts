import { movedSecretsNote } from '../../domain/moved-secrets.js';
import type { Command } from 'commander';
import { launchFolder, processFolder } from '../../agents/launch-folder.js';
import type { SecretRef } from '../../domain/ports.js';
import type { ServerDefinition } from '../../domain/server-definition.js';
import type { CliContext } from '../cli-context.js';
import { describeTarget, type ServerView } from '../render/server-table.js';
import { readAddSecrets } from './mcp-add-secrets.js';
import { checkSomethingChanges, editPlan, type EditFlags } from './mcp-edit-plan.js';
import { checkName, collect } from './mcp-input.js';
import { deletedLine, storedSecretsOf } from './stored-secrets.js';
import { serverPath } from './mcp-list.js';
import { warnStartProblems } from './start-problems.js';

/**
 * PATCH /servers/:name with every field of the edited definition: the other kind's
 * fields are cleared (null), so a server moved between local and remote keeps nothing
 * of what it was. Name, switches, sharing and OAuth are not the edit's to change.
 */
function patchOf(definition: ServerDefinition) {
  if (definition.transport === 'stdio')
    return {
      transport: definition.transport,
      command: definition.command ?? null,
      args: definition.args,
      env: definition.env,
      cwd: definition.cwd ?? null,
      url: null,
      headers: {},
      secret_env: definition.secret_env,
      secret_headers: [],
    };
  return {
    transport: definition.transport,
    url: definition.url ?? null,
    headers: definition.headers,
    command: null,
    args: [],
    env: {},
    cwd: null,
    secret_env: [],
    secret_headers: definition.secret_headers,
  };
}

/** The definition still names the secret: the daemon kept its value. */
function namedBy(server: ServerView, ref: SecretRef): boolean {
  return (ref.kind === 'env' ? server.secret_env : server.secret_headers).includes(ref.name);
}

async function edit(context: CliContext, name: string, command: string[], flags: EditFlags) {
  checkName(name);
  checkSomethingChanges(name, command, flags);
  const api = await context.api();
  const { server: current } = await api.get<{ server: ServerView }>(serverPath(name));
  const here = processFolder();
  const plan = editPlan(
    current,
    command,
    flags,
    here === undefined ? undefined : launchFolder(here),
  );
  const secrets = await readAddSecrets(context, plan.definition, flags);
  const stored = await storedSecretsOf(api, name);
  const { server } = await api.patch<{ server: ServerView }>(
    serverPath(name),
    patchOf(secrets.definition),
  );
  await secrets.store(api);
  context.stdout.write(
    `Changed server "${server.name}" (${server.transport}: ${describeTarget(server)})\n`,
  );
  for (const note of [...plan.notes, ...secrets.notes]) context.stdout.write(`  ${note}\n`);
  context.stdout.write(
    deletedLine(
      stored.refs.filter((ref) => namedBy(current, ref) && !namedBy(server, ref)),
      stored.where,
    ),
  );
  context.stdout.write(signInNote(current, server));
  const moved = movedSecretsNote(current, server);
  if (moved !== undefined) context.stdout.write(`  ${moved}\n`);
  await warnStartProblems(context, api, [server.name]);
}

/** A sign-in held before the edit that no longer applies (docs/OAUTH.md): say so. */
function signInNote(before: ServerView, after: ServerView): string {
  if (before.signed_in !== true) return '';
  if (after.transport === 'stdio')
    return '  its OAuth sign-in was forgotten: a local server has none\n';
  if (after.signed_in !== false) return '';
  return `  its OAuth sign-in was for the old URL; if the new one needs one: coffer mcp login ${after.name}\n`;
}

/** `coffer mcp edit <name> [--env …] [--url …] [-- <command> [args…]]`. */
export function registerMcpEdit(mcp: Command, context: CliContext): void {
  mcp
    .command('edit')
    .description(
      "change a server's command, URL, env, headers or working directory; its tool choices, policies and secrets stay",
    )
    .argument('<name>', 'the server name')
    .argument('[command...]', 'a new command and its arguments (put -- before them)')
    .option('-e, --env <NAME=value>', 'set an environment variable (repeatable)', collect, [])
    .option(
      '--unset-env <NAME>',
      'remove an environment variable, plain or secret (repeatable)',
      collect,
      [],
    )
    .option('--cwd <dir>', 'the working directory of a local server')
    .option('--unset-cwd', 'run a local server where the daemon starts servers (the home folder)')
    .option('--url <url>', 'a new URL (a local server becomes a remote one)')
    .option('-t, --transport <http|sse>', 'the protocol of a remote server')
    .option('-H, --header <"Name: value">', 'set an HTTP header (repeatable)', collect, [])
    .option(
      '--unset-header <Name>',
      'remove an HTTP header, plain or secret (repeatable)',
      collect,
      [],
    )
    .option('--secret-env <NAME>', 'env var whose value goes to the keychain', collect, [])
    .option('--secret-header <Name>', 'header whose value goes to the keychain', collect, [])
    .option('--from-stdin', 'read secret values from stdin (one line each), not a prompt')
    .addHelpText(
      'after',
      '\nExamples:\n  coffer mcp edit files --env LOG_LEVEL=debug\n' +
        '  coffer mcp edit files -- npx -y @modelcontextprotocol/server-filesystem ~/notes ~/code\n' +
        '  coffer mcp edit docs --url https://example.com/v2/mcp --unset-header X-Team\n',
    )
    .action((name: string, command: string[], flags: EditFlags) =>
      edit(context, name, command, flags),
    );
}
