import { existsSync, readdirSync } from 'node:fs';
import type { Command } from 'commander';
import { upstreamLogPath } from '../../config/home.js';
import { closestName } from '../../domain/closest-name.js';
import { CofferError } from '../../domain/errors.js';
import type { CliContext } from '../cli-context.js';
import { colorsFor } from '../render/colors.js';
import { formatLogLine } from '../render/log-lines.js';
import { followLines, lastLines } from './log-tail.js';
import { checkName } from './mcp-input.js';

interface LogsFlags {
  upstream?: string;
  follow?: boolean;
  lines?: string;
  raw?: boolean;
}

function parseCount(text: string | undefined): number {
  if (text === undefined) return 100;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new CofferError('INVALID_INPUT', '--lines must be a whole number (0 or more)');
  return value;
}

/**
 * Where a server's log would be missing for a typo (`--upstream fixtur`), the log of the
 * server most likely meant is named: read from the logs folder, so without the daemon too.
 */
function upstreamHint(logsDir: string, server: string): string {
  const logged = existsSync(logsDir)
    ? readdirSync(logsDir).flatMap((file) => /^upstream-(.+)\.log$/.exec(file)?.[1] ?? [])
    : [];
  const meant = closestName(server, logged);
  const typo = meant === undefined ? '' : `did you mean "${meant}"? Otherwise `;
  return `${typo}it is written once a server named "${server}" has been started; see \`coffer mcp list\``;
}

/**
 * `coffer logs [--upstream NAME] [--follow] [-n N] [--raw]`: reads the log files in the
 * Coffer home directly, so it works while the daemon is down (when it is most needed).
 */
async function showLogs(context: CliContext, flags: LogsFlags): Promise<void> {
  const count = parseCount(flags.lines);
  const path =
    flags.upstream === undefined
      ? context.paths.daemonLog
      : upstreamLogPath(context.paths, checkName(flags.upstream));
  if (!existsSync(path)) {
    throw new CofferError('NOT_FOUND', `No log yet at ${path}`, {
      hint:
        flags.upstream === undefined
          ? 'the daemon writes it once started (`coffer start`)'
          : upstreamHint(context.paths.logsDir, flags.upstream),
    });
  }
  const colors = colorsFor(context.stdout, context.env);
  const print = (line: string): void =>
    context.stdout.write(`${flags.raw === true ? line : formatLogLine(line, colors)}\n`);
  const { lines, end } = lastLines(path, count);
  for (const line of lines) print(line);
  if (flags.follow === true) await followLines(path, end, print);
}

export function registerLogsCommand(program: Command, context: CliContext): void {
  program
    .command('logs')
    .description("print the daemon's log, or an upstream server's with --upstream")
    .option('--upstream <name>', "the log of this server's processes (their stderr and messages)")
    .option('-n, --lines <n>', 'how many of the last lines to print (default 100)')
    .option('-f, --follow', 'keep printing lines as they are written (Ctrl-C to stop)')
    .option('--raw', 'print the JSON lines as written')
    .action((flags: LogsFlags) => showLogs(context, flags));
}
