import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import type { RestoreFlags } from './agents-backups.js';
import type { ImportFlags } from './agents-import.js';
import type { InstallFlags } from './agents-install.js';
import type { ListFlags } from './agents-list.js';

/**
 * `coffer agents …`: bring an agent's servers into Coffer (import), then point the agent
 * at Coffer (install). Every change to an agent file is backed up first and can be
 * undone (uninstall, restore). Only import talks to the daemon.
 *
 * The commands are declared here and their code is loaded when one runs: the agent
 * layer (JSONC and TOML editors, WebAssembly) would otherwise slow every `coffer` call.
 */

const SCOPE_HELP = 'which config: user, project or local (Claude Code)';
const AGENT_HELP = 'the agent, e.g. cursor (see `coffer agents list`)';

function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
}

function declareListAndImport(agents: Command, context: CliContext): void {
  agents
    .command('list')
    .description('show the agents here, their config files, servers and whether Coffer is in them')
    .option('--json', 'print JSON')
    .action(async (flags: ListFlags) =>
      (await import('./agents-list.js')).listAgents(context, flags),
    );

  agents
    .command('import')
    .description("register an agent's MCP servers in Coffer, moving secrets to the keychain")
    .argument('<agent>', AGENT_HELP)
    .option('--scope <scope>', SCOPE_HELP, 'user')
    .option(
      '--file <path>',
      "read another file in the agent's format (a server's README snippet; - for stdin) instead",
    )
    .option('--dry-run', 'print what would happen and change nothing')
    .option(
      '--rename',
      'give servers whose name Coffer already has a free name instead of skipping',
    )
    .option(
      '--secret <NAME>',
      'also treat this env variable or header as a secret (repeatable)',
      collect,
      [],
    )
    .option('--json', 'print JSON')
    .action(async (id: string, flags: ImportFlags) =>
      (await import('./agents-import.js')).importAgent(context, id, flags),
    );
}

function declareInstall(agents: Command, context: CliContext): void {
  agents
    .command('install')
    .description('add one "coffer" entry that runs `coffer shim` to an agent')
    .argument('<agent>', AGENT_HELP)
    .option('--scope <scope>', SCOPE_HELP, 'user')
    .option('--replace', 'also remove the servers imported from this file into Coffer')
    .option('--dry-run', 'print what would change and change nothing')
    .action(async (id: string, flags: InstallFlags) =>
      (await import('./agents-install.js')).install(context, id, flags),
    );

  agents
    .command('uninstall')
    .description('remove Coffer from an agent and put back what install took out')
    .argument('<agent>', AGENT_HELP)
    .option('--scope <scope>', SCOPE_HELP, 'user')
    .option('--dry-run', 'print what would change and change nothing')
    .action(async (id: string, flags: InstallFlags) =>
      (await import('./agents-install.js')).uninstall(context, id, flags),
    );
}

function declareBackups(agents: Command, context: CliContext): void {
  agents
    .command('backups')
    .description('list the backups Coffer took of agent config files, newest first')
    .argument('[agent]', 'only this agent')
    .option('--json', 'print JSON')
    .action(async (id: string | undefined, flags: { json?: boolean }) =>
      (await import('./agents-backups.js')).showBackups(context, id, flags),
    );

  agents
    .command('restore')
    .description("put an agent's config file back as a backup holds it (default: the latest)")
    .argument('<agent>', AGENT_HELP)
    .option('--backup <id>', 'the backup to restore (see `coffer agents backups`)')
    .option('--scope <scope>', 'the latest backup of this scope only')
    .option('--dry-run', 'print what would change and change nothing')
    .action(async (id: string, flags: RestoreFlags) =>
      (await import('./agents-backups.js')).restore(context, id, flags),
    );
}

export function registerAgentsCommands(program: Command, context: CliContext): void {
  const agents = program
    .command('agents')
    .description('set up agents: import their MCP servers into Coffer and install Coffer in them');
  declareListAndImport(agents, context);
  declareInstall(agents, context);
  declareBackups(agents, context);
}
