import { CommanderError } from 'commander';
import { createCliContext, type CliContext } from './cli-context.js';
import { ExitCode, reportError } from './output.js';
import { createProgram } from './program.js';

/**
 * Runs one `coffer …` command line (argv without node and script) and returns the exit
 * code. Never calls process.exit: src/main.ts sets process.exitCode.
 */
export async function runCli(
  args: readonly string[],
  context: CliContext = createCliContext(),
): Promise<number> {
  const program = createProgram(context);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return ExitCode.OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version end with exitCode 0; usage errors were already printed.
      return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    }
    return reportError(context.stderr, error, context.env);
  }
}
