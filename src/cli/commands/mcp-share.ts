import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import type { ServerView } from '../render/server-table.js';
import { checkName } from './mcp-input.js';
import { serverPath } from './mcp-list.js';

/** What a user gives up by sharing a server; said by `--help` and by `coffer mcp share`. */
export const SHARED_TRADE_OFF = 'it cannot ask agents for sampling, elicitation or roots';

/**
 * `coffer mcp share|unshare <name>`: a verb pair like enable/disable, since the CLI has
 * no command that edits a definition field by field. Both PATCH the one field; the
 * daemon closes what is connected to the server, so new connections follow the setting.
 */
export function registerMcpShare(mcp: Command, context: CliContext): void {
  for (const shared of [true, false]) {
    mcp
      .command(shared ? 'share' : 'unshare')
      .description(
        shared
          ? `serve every agent through one connection to this server (${SHARED_TRADE_OFF})`
          : 'give each agent session its own connection to this server again (the default)',
      )
      .argument('<name>', 'the server name')
      .action(async (name: string) => {
        checkName(name);
        const api = await context.api();
        const { server } = await api.patch<{ server: ServerView }>(serverPath(name), { shared });
        context.stdout.write(
          server.shared
            ? `Server "${server.name}" is now shared by all agents: ${SHARED_TRADE_OFF}\n`
            : `Server "${server.name}" now gives each agent session its own connection\n`,
        );
      });
  }
}
