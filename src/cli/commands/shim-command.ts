import type { Command } from 'commander';
import { CofferError } from '../../domain/errors.js';

/**
 * `coffer shim [--lean]`: registered here for `coffer --help` and `coffer shim --help`
 * only. src/main.ts runs the shim before the CLI is loaded, so an agent's MCP server
 * never pays for commander and the CLI's imports.
 */
export function registerShimCommand(program: Command): void {
  program
    .command('shim')
    .description(
      'serve MCP on stdin/stdout, relayed to the Coffer daemon (starting it if needed): the command agents run',
    )
    .option('--lean', 'ask the gateway for its lean tool surface (/mcp?mode=lean)')
    .addHelpText(
      'after',
      '\nConfigure an agent with: {"command": "coffer", "args": ["shim"]}\nLogs: $COFFER_HOME/logs/shim.log (stdout carries MCP only)',
    )
    .action(() => {
      // Reaching this means the CLI was run without the bin/coffer.js entry point.
      throw new CofferError('INTERNAL', '`coffer shim` must be run through bin/coffer.js');
    });
}
