import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { collect } from './mcp-input.js';

export interface AddJsonFlags {
  dryRun?: boolean;
  rename?: boolean;
  secret: string[];
  json?: boolean;
}

/**
 * `coffer mcp add-json <name> '<json>'`, as `claude mcp add-json` takes it: one server's
 * entry, read as Claude Code reads its entries, imported as `coffer agents import` would
 * (secrets to the keychain, stand-ins never stored).
 */
export function registerMcpAddJson(mcp: Command, context: CliContext): void {
  mcp
    .command('add-json')
    .description(
      'register a server from its JSON entry, as claude mcp add-json takes it (secrets to the keychain)',
    )
    .argument('<name>', 'the server name: a-z, 0-9, "_" and "-", at most 32 characters')
    .argument(
      '<json>',
      'the entry: {"command": …, "args": […], "env": {…}} or {"type": "http", "url": …, "headers": {…}}',
    )
    .option('--dry-run', 'print what would happen and change nothing')
    .option('--rename', 'give it a free name if Coffer already has a server of that name')
    .option('--secret <NAME>', 'also treat this env variable or header as a secret', collect, [])
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `\nExample:\n  coffer mcp add-json github '{"command":"npx","args":["-y","@modelcontextprotocol/server-github"],"env":{"GITHUB_TOKEN":"ghp_…"}}'\n`,
    )
    .action(async (name: string, json: string, flags: AddJsonFlags) =>
      (await import('./mcp-add-json-run.js')).addJson(context, name, json, flags),
    );
}
