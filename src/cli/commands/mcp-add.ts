import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { describeTarget, type ServerView } from '../render/server-table.js';
import { readAddSecrets, type AddSecretFlags } from './mcp-add-secrets.js';
import { launchFolder, processFolder } from '../../agents/launch-folder.js';
import { buildDefinition, collect, type AddOptions } from './mcp-input.js';
import { serverPath } from './mcp-list.js';
import { readOAuthClient, type OAuthClientFlags } from './mcp-oauth-client.js';
import { SHARED_TRADE_OFF } from './mcp-share.js';
import { warnStartProblems } from './start-problems.js';

interface AddFlags extends AddSecretFlags, OAuthClientFlags {
  env: string[];
  header: string[];
  cwd?: string;
  url?: string;
  transport?: string;
  shared?: boolean;
}

/**
 * An option Coffer does not know is most often the server's own (`coffer mcp add x npx -y
 * pkg`): commander cannot tell, so the error says where such options go.
 */
function withCommandHint(text: string): string {
  const message = text.replace(/^error: /, '').trimEnd();
  // A near miss of one of ours comes with commander's "Did you mean …?": that is the fix.
  if (!message.startsWith('unknown option') || message.includes('Did you mean'))
    return `${message}\n`;
  return `${message} (if it is the server's, put -- before its command: coffer mcp add <name> -- <command> [args…])\n`;
}

/** `coffer mcp add <name> -- <command> [args…]` or `coffer mcp add <name> --url <url>`. */
export function registerMcpAdd(mcp: Command, context: CliContext): void {
  mcp
    .command('add')
    .description('register an MCP server: a local command (after --) or a remote --url')
    .argument('<name>', 'the server name: a-z, 0-9, "_" and "-", at most 32 characters')
    .argument(
      '[command...]',
      'the command and its arguments (put -- before them), or the URL of a remote server',
    )
    .option(
      '-e, --env <NAME=value>',
      'environment variable for a local server (repeatable)',
      collect,
      [],
    )
    .option('--cwd <dir>', 'working directory for a local server')
    .option('--url <url>', 'the URL of a remote server (Streamable HTTP or SSE)')
    .option('-t, --transport <http|sse>', 'the protocol of a remote server (default http)')
    .option(
      '-H, --header <"Name: value">',
      'HTTP header for a remote server (repeatable)',
      collect,
      [],
    )
    .option('--secret-env <NAME>', 'env var whose value goes to the keychain', collect, [])
    .option('--secret-header <Name>', 'header whose value goes to the keychain', collect, [])
    .option('--shared', `one connection for all agents (${SHARED_TRADE_OFF})`)
    .option('--from-stdin', 'read secret values from stdin (one line each), not a prompt')
    .option('--oauth-client-id <id>', 'a pre-registered OAuth client id (servers without DCR)')
    .option('--oauth-client-secret', "prompt for that client's secret (kept in the keychain)")
    .option('--oauth-client-secret-from-stdin', "read that client's secret from stdin")
    .addHelpText(
      'after',
      '\nExamples:\n  coffer mcp add files -- npx -y @modelcontextprotocol/server-filesystem ~/notes\n' +
        '  coffer mcp add docs --url https://example.com/mcp --header "X-Team: blue"\n' +
        '  coffer mcp add --transport http docs https://example.com/mcp   # as claude mcp add takes it\n',
    )
    // Only the error's words: where output goes is the program's (configureOutput merges).
    .configureOutput({ outputError: (text, write) => write(`coffer: ${withCommandHint(text)}`) })
    .action(async (name: string, command: string[], flags: AddFlags) => {
      // A folder deleted under the shell has no paths to anchor: the command stays as typed.
      const here = processFolder();
      const options: AddOptions = {
        env: flags.env,
        header: flags.header,
        ...(flags.cwd === undefined ? {} : { cwd: flags.cwd }),
        ...(flags.url === undefined ? {} : { url: flags.url }),
        ...(flags.transport === undefined ? {} : { transport: flags.transport }),
        ...(flags.shared === true ? { shared: true } : {}),
        ...(here === undefined ? {} : { folder: launchFolder(here) }),
      };
      const { definition, notes } = buildDefinition(name, command, options);
      const secrets = await readAddSecrets(context, definition, flags);
      const oauth = await readOAuthClient(context, flags, definition.transport !== 'stdio');
      const api = await context.api();
      const { server } = await api.post<{ server: ServerView }>('/servers', secrets.definition);
      // All or nothing: a server whose secrets could not be stored is removed again.
      await secrets.store(api).catch(async (error: unknown) => {
        await api.delete(serverPath(server.name)).catch(() => undefined);
        throw error;
      });
      await oauth?.store(api, server.name);
      const shared = server.shared ? ', shared by all agents' : '';
      context.stdout.write(
        `Added server "${server.name}" (${server.transport}: ${describeTarget(server)}${shared})\n`,
      );
      for (const note of [...notes, ...secrets.notes]) context.stdout.write(`  ${note}\n`);
      await warnStartProblems(context, api, [server.name]);
    });
}
