import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { registerMcpAdd } from './mcp-add.js';
import { registerMcpAddJson } from './mcp-add-json.js';
import { registerMcpEdit } from './mcp-edit.js';
import { registerMcpInspect } from './mcp-inspect.js';
import { registerMcpList } from './mcp-list.js';
import { registerMcpLogin } from './mcp-login.js';
import { registerMcpPolicy } from './mcp-policy.js';
import { registerMcpReview } from './mcp-review.js';
import { registerMcpShare } from './mcp-share.js';
import { registerMcpToggle } from './mcp-toggle.js';

/**
 * `coffer mcp …`: manage the registered MCP servers. Every subcommand checks its input
 * locally first (no daemon is started for a typo), then talks to the daemon's REST API
 * only, which checks again.
 */
export function registerMcpCommands(program: Command, context: CliContext): void {
  const mcp = program
    .command('mcp')
    .description('add, edit, list, inspect and switch the MCP servers Coffer serves');
  registerMcpAdd(mcp, context);
  registerMcpAddJson(mcp, context);
  registerMcpEdit(mcp, context);
  registerMcpList(mcp, context);
  registerMcpToggle(mcp, context);
  registerMcpShare(mcp, context);
  registerMcpPolicy(mcp, context);
  registerMcpReview(mcp, context);
  registerMcpInspect(mcp, context);
  registerMcpLogin(mcp, context);
}
