/**
 * The one entry point (bin/coffer.js imports the compiled file). It chooses a mode:
 * `coffer daemon` runs the daemon in this process, `coffer shim` the stdio shim; every
 * other command (and any `--help`) goes to the CLI, which talks to the daemon over HTTP
 * only. Imports are dynamic so a CLI command never loads the daemon (hono, pino,
 * SQLite, …), and neither the daemon nor the shim loads commander.
 */
import { realpathSync } from 'node:fs';

const args = process.argv.slice(2);
const wantsHelp = args.some((arg) => arg === '--help' || arg === '-h');

function scriptPath(): string | undefined {
  const script = process.argv[1];
  if (script === undefined) return undefined;
  try {
    return realpathSync(script);
  } catch {
    return script;
  }
}

async function daemonMode(extra: readonly string[]): Promise<number> {
  // Set first: discovery recognises the daemon by this title (/proc/<pid>/cmdline, ps).
  process.title = 'coffer-daemon';
  try {
    // Cheap checks before the heavy imports (store, gateway, SDK).
    const [{ portRangeFromEnv }, { cofferPaths }, { CofferError }] = await Promise.all([
      import('./daemon/port-range.js'),
      import('./config/home.js'),
      import('./domain/errors.js'),
    ]);
    if (extra.length > 0) {
      throw new CofferError(
        'INVALID_INPUT',
        `\`coffer daemon\` takes no arguments, got "${extra.join(' ')}"`,
        { hint: 'configure it with COFFER_HOME and COFFER_PORT_RANGE' },
      );
    }
    const portRange = portRangeFromEnv();
    const paths = cofferPaths();
    const [{ runDaemon }, { createServices }] = await Promise.all([
      import('./daemon/run-daemon.js'),
      import('./daemon/services.js'),
    ]);
    const binaryPath = scriptPath();
    const handle = await runDaemon({
      paths,
      portRange,
      createServices,
      ownProcess: true,
      ...(binaryPath === undefined ? {} : { binaryPath }),
    });
    process.stderr.write(`Coffer daemon listening on ${handle.info.mcpUrl} (pid ${process.pid})\n`);
    return 0;
  } catch (error) {
    const { reportError } = await import('./cli/output.js');
    return reportError(
      {
        stderr: {
          write: (text) => process.stderr.write(text),
          isTTY: process.stderr.isTTY === true,
        },
      },
      error,
    );
  }
}

async function cliMode(): Promise<number> {
  // `coffer activity | head`: the reader went away, so stop quietly, as a Unix tool stops,
  // instead of ending on an unhandled EPIPE with a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
  const { runCli } = await import('./cli/main.js');
  return runCli(args);
}

/** The shim starts on every agent launch: straight to it, without the CLI's imports. */
async function shimMode(extra: readonly string[]): Promise<number> {
  const { runShim } = await import('./shim/run-shim.js');
  return runShim(extra);
}

process.exitCode =
  args[0] === 'daemon' && !wantsHelp
    ? await daemonMode(args.slice(1))
    : args[0] === 'shim' && !wantsHelp
      ? await shimMode(args.slice(1))
      : await cliMode();
