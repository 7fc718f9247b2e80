import type { Command } from 'commander';
import { CofferError } from '../../domain/errors.js';
import type { ServerCapabilities } from '../../domain/ports.js';
import type { ApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';
import { renderCapabilityTree, type TreeCapabilities } from '../render/capability-tree.js';
import { colorsFor } from '../render/colors.js';
import { storedSecretKeys } from './stored-secrets.js';
import { renderServerDetails, renderServerTable, type ServerView } from '../render/server-table.js';
import { checkName } from './mcp-input.js';

export function serverPath(name: string, rest = ''): string {
  return `/servers/${encodeURIComponent(name)}${rest}`;
}

/** One server's lists; a failure is shown under that server and does not end the listing. */
async function treeOf(api: ApiClient, name: string): Promise<TreeCapabilities> {
  try {
    const capabilities = await api.get<ServerCapabilities>(serverPath(name, '/capabilities'));
    return { ok: true, capabilities };
  } catch (error) {
    if (error instanceof CofferError) return { ok: false, message: error.message };
    throw error;
  }
}

async function printTree(
  context: CliContext,
  api: ApiClient,
  servers: ServerView[],
  json: boolean,
) {
  const trees = await Promise.all(servers.map((server) => treeOf(api, server.name)));
  if (json) {
    const entries = servers.map((server, index) => {
      const tree = trees[index];
      return tree?.ok === true
        ? { ...server, capabilities: tree.capabilities }
        : { ...server, capabilities_error: tree?.message ?? 'unknown' };
    });
    context.stdout.write(`${JSON.stringify({ servers: entries }, null, 2)}\n`);
    return;
  }
  const colors = colorsFor(context.stdout, context.env);
  const blocks = servers.map((server, index) =>
    renderCapabilityTree(server, trees[index] ?? { ok: false, message: 'unknown' }, colors),
  );
  context.stdout.write(blocks.join('\n'));
}

/**
 * Every server, or the one named: `coffer mcp list files --tree` is how a user asks for
 * one server's capabilities. An unknown name is the API's SERVER_NOT_FOUND (did you mean).
 */
async function serversOf(api: ApiClient, name: string | undefined): Promise<ServerView[]> {
  if (name === undefined) return (await api.get<{ servers: ServerView[] }>('/servers')).servers;
  const { server } = await api.get<{ server: ServerView }>(serverPath(name));
  return [server];
}

/** `coffer mcp list [name] [--tree] [--json]` and `coffer mcp show <name> [--json]`. */
export function registerMcpList(mcp: Command, context: CliContext): void {
  mcp
    .command('list')
    .description('list the registered servers, their state and capability counts')
    .argument('[name]', 'only this server (with --tree: only its capabilities)')
    .option('--tree', 'show each server with its tools, prompts and resources')
    .option('--json', 'print JSON instead of a table')
    .action(async (name: string | undefined, options: { tree?: boolean; json?: boolean }) => {
      // A bad name is refused before any daemon starts, as by every other command.
      if (name !== undefined) checkName(name);
      const api = await context.api();
      const servers = await serversOf(api, name);
      const json = options.json === true;
      if (options.tree === true) {
        await printTree(context, api, servers, json);
      } else if (json) {
        context.stdout.write(`${JSON.stringify({ servers }, null, 2)}\n`);
      } else if (servers.length === 0) {
        context.stdout.write(
          'No servers yet. Add one with `coffer mcp add <name> -- <command>`.\n',
        );
      } else {
        context.stdout.write(renderServerTable(servers, colorsFor(context.stdout, context.env)));
      }
    });

  mcp
    .command('show')
    .alias('get')
    .description("show one server's definition and state (also: get, as claude mcp get)")
    .argument('<name>', 'the server name')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      checkName(name);
      const api = await context.api();
      const { server } = await api.get<{ server: ServerView }>(serverPath(name));
      if (options.json === true) {
        context.stdout.write(`${JSON.stringify({ server }, null, 2)}\n`);
        return;
      }
      const stored = await storedSecretKeys(api, name);
      const colors = colorsFor(context.stdout, context.env);
      context.stdout.write(renderServerDetails(server, colors, stored));
    });
}
