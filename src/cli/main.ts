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
    const json = wantsJson(args);
    return reportError(
      { stderr: context.stderr, stdout: context.stdout, json },
      error,
      context.env,
    );
  }
}

/** `--json` among Coffer's own options: after `--` the words are a server's command line. */
function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}
