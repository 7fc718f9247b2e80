import { Command } from 'commander';
import { packageVersion } from '../discovery/package-info.js';
import type { CliContext } from './cli-context.js';
import { registerActivityCommand } from './commands/activity-command.js';
import { registerAgentsCommands } from './commands/agents-commands.js';
import { registerConfigCommands } from './commands/config-commands.js';
import { registerDaemonCommands } from './commands/daemon-commands.js';
import { registerDoctorCommand } from './commands/doctor-command.js';
import { registerLogsCommand } from './commands/logs-command.js';
import { registerMcpCommands } from './commands/mcp-commands.js';
import { registerSecretsCommands } from './commands/secrets-commands.js';
import { registerShimCommand } from './commands/shim-command.js';
import { registerToolsCommands } from './commands/tools-command.js';
import { registerUiCommand } from './commands/ui-command.js';

/**
 * The `coffer` command tree. Command groups register themselves here, one line each.
 * Errors thrown by actions propagate to runCli (src/cli/main.ts), which prints them
 * and maps them to exit codes (src/cli/output.ts).
 */
export function createProgram(context: CliContext): Command {
  const program = new Command('coffer')
    .description('Coffer: every MCP server you use, served to every agent as one.')
    .version(packageVersion(), '-v, --version', 'print the Coffer version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError()
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      writeErr: (text) => context.stderr.write(text),
      outputError: (text, write) => write(`coffer: ${text.replace(/^error: /, '')}`),
    })
    .exitOverride();

  registerDaemonCommands(program, context);
  registerMcpCommands(program, context);
  registerAgentsCommands(program, context);
  registerShimCommand(program);
  registerSecretsCommands(program, context);
  registerActivityCommand(program, context);
  registerLogsCommand(program, context);
  registerToolsCommands(program, context);
  registerUiCommand(program, context);
  registerDoctorCommand(program, context);
  registerConfigCommands(program, context);

  return program;
}
