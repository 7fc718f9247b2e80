import type { ApiClient, CliContext } from '../../src/cli/cli-context.js';
import { runCli } from '../../src/cli/main.js';
import { cofferPaths } from '../../src/config/home.js';

/** What one `coffer …` printed, and its exit code. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface InProcessOptions {
  /** The Coffer home (default: one that does not exist; nothing may be written there). */
  readonly home?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * `coffer <args>` run in this process against `api`, a fake of the daemon's REST API
 * (`get`, `post`, … as the command calls them): no daemon, no child process, the output
 * captured (no colours: not a terminal).
 */
export async function runCliWith(
  args: readonly string[],
  api: object,
  options: InProcessOptions = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const context: CliContext = {
    paths: cofferPaths(options.home ?? '/nonexistent-coffer-home'),
    env: options.env ?? {},
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
    api: () => Promise.resolve(api as ApiClient),
  };
  const code = await runCli(args, context);
  return { code, stdout, stderr };
}
