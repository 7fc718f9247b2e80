import type { Command } from 'commander';
import { DEFAULT_ENSURE_TIMEOUT_MS, ensureDaemon } from '../../discovery/ensure-daemon.js';
import { inspectDaemon, type DaemonState } from '../../discovery/inspect-daemon.js';
import type { DaemonInfo } from '../../discovery/daemon-record.js';
import { isProcessAlive } from '../../discovery/process-check.js';
import { CofferError } from '../../domain/errors.js';
import { createApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';
import { CliExit, ExitCode } from '../output.js';

/** `coffer start | stop | status | daemon`: the daemon's lifecycle. */

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new CofferError(
      'INVALID_INPUT',
      `--timeout must be a positive number of seconds, got "${value}"`,
    );
  }
  return seconds;
}

/** "3d 4h", "2h 5m", "5m 3s", "42s". */
export function formatUptime(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(s / 86_400);
  const hours = Math.floor((s % 86_400) / 3_600);
  const minutes = Math.floor((s % 3_600) / 60);
  const seconds = s % 60;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  return `${seconds}s`;
}

function describeServers(servers: unknown): string | undefined {
  if (!Array.isArray(servers)) return undefined;
  const names = servers.map((server: unknown) => {
    if (typeof server === 'string') return server;
    if (server !== null && typeof server === 'object') {
      const { name, state } = server as { name?: unknown; state?: unknown };
      if (typeof name === 'string') return typeof state === 'string' ? `${name}: ${state}` : name;
    }
    return '?';
  });
  return names.length === 0 ? '0' : `${names.length} (${names.join(', ')})`;
}

function notRunningReason(state: DaemonState): string {
  switch (state.state) {
    case 'missing':
      return 'not running';
    case 'invalid':
      return `not running (daemon.json is unreadable: ${state.reason})`;
    case 'dead':
      return `not running (pid ${state.record.pid} in daemon.json has exited)`;
    case 'foreign':
      return `not running (pid ${state.record.pid} in daemon.json is another program)`;
    case 'elsewhere':
      return `not running (daemon.json names the daemon of ${state.record.home ?? 'another home'}: this home was copied from it)`;
    case 'unreachable':
      return `not reachable (pid ${state.record.pid} does not accept connections on port ${state.record.port})`;
    case 'running':
      return 'running';
  }
}

async function stopDaemon(context: CliContext, timeoutSeconds: number): Promise<void> {
  const { paths, stdout, stderr } = context;
  const state = await inspectDaemon(paths);
  if (state.state !== 'running' && state.state !== 'unreachable') {
    stdout.write(`Coffer daemon: ${notRunningReason(state)}\n`);
    return;
  }
  const { pid } = state.record;
  let asked = false;
  if (state.state === 'running') {
    try {
      await createApiClient(state.info, { paths, requestTimeoutMs: 5_000 }).post('/daemon/stop');
      asked = true;
    } catch (error) {
      const reason = error instanceof CofferError ? error.message : 'request failed';
      stderr.write(`Coffer daemon did not accept the stop request (${reason}); sending SIGTERM\n`);
    }
  }
  if (!asked) {
    // inspectDaemon verified that this pid is a coffer-daemon process.
    try {
      process.kill(pid, 'SIGTERM');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') {
        throw new CofferError(
          'DAEMON_UNAVAILABLE',
          `Cannot signal the Coffer daemon (pid ${pid})`,
          {
            cause: error,
          },
        );
      }
    }
  }
  // The daemon removes daemon.json (if still its own) before it exits: a dead pid is the end.
  const deadline = Date.now() + timeoutSeconds * 1000;
  while (isProcessAlive(pid)) {
    if (Date.now() >= deadline) {
      throw new CofferError(
        'DAEMON_UNAVAILABLE',
        `The Coffer daemon (pid ${pid}) did not stop within ${timeoutSeconds} s`,
        { hint: `see ${paths.daemonLog}; \`kill ${pid}\` ends it` },
      );
    }
    await sleep(50);
  }
  stdout.write(`Coffer daemon stopped (pid ${pid})\n`);
}

/** `coffer status`: exit UNAVAILABLE with the reason when no daemon runs. */
async function showStatus(context: CliContext, json: boolean): Promise<void> {
  const state = await inspectDaemon(context.paths);
  if (state.state !== 'running') {
    context.stdout.write(
      json
        ? `${JSON.stringify({ running: false, reason: notRunningReason(state) })}\n`
        : `Coffer daemon: ${notRunningReason(state)}\n`,
    );
    throw new CliExit(ExitCode.UNAVAILABLE);
  }
  const api = createApiClient(state.info, { paths: context.paths, requestTimeoutMs: 10_000 });
  const status = await api.get<Record<string, unknown>>('/status');
  context.stdout.write(
    json
      ? `${JSON.stringify({ running: true, ...status }, null, 2)}\n`
      : `${statusLines(state.info, status).join('\n')}\n`,
  );
}

function statusLines(info: DaemonInfo, status: Record<string, unknown>): string[] {
  const uptime = typeof status['uptime_seconds'] === 'number' ? status['uptime_seconds'] : 0;
  const lines = [
    'Coffer daemon: running',
    `  pid:      ${info.pid}`,
    `  port:     ${info.port}`,
    `  endpoint: ${info.mcpUrl}`,
    `  uptime:   ${formatUptime(uptime)}`,
  ];
  const servers = describeServers(status['servers']);
  if (servers !== undefined) lines.push(`  servers:  ${servers}`);
  if (typeof status['sessions'] === 'number') lines.push(`  sessions: ${status['sessions']}`);
  const results = describeResultBudget(status);
  if (results !== undefined) lines.push(`  results:  ${results}`);
  if (status['code_replaced'] === true)
    lines.push(
      '  note:     Coffer was updated or rebuilt since this daemon started; restart it to run the new one: coffer stop',
    );
  const blocking = status['block_credentials'];
  if (typeof blocking === 'boolean')
    lines.push(
      `  guards:   stored secrets blocked and redacted; credential shapes ${blocking ? 'blocked (COFFER_BLOCK_CREDENTIALS=1)' : 'flagged'}`,
    );
  return lines;
}

export function registerDaemonCommands(program: Command, context: CliContext): void {
  program
    .command('start')
    .description('start the Coffer daemon in the background and print its MCP endpoint')
    .option(
      '--timeout <seconds>',
      'how long to wait for it to serve',
      parseSeconds,
      DEFAULT_ENSURE_TIMEOUT_MS / 1000,
    )
    .action(async (options: { timeout: number }) => {
      const daemon = await ensureDaemon(context.paths, {
        env: context.env,
        timeoutMs: options.timeout * 1000,
      });
      context.stdout.write(`${daemon.mcpUrl}\n`);
      context.stderr.write(
        daemon.spawned
          ? `Coffer daemon started (pid ${daemon.pid}, port ${daemon.port})\n`
          : `Coffer daemon already running (pid ${daemon.pid}, port ${daemon.port})\n`,
      );
    });

  program
    .command('stop')
    .description('stop the Coffer daemon gracefully')
    .option('--timeout <seconds>', 'how long to wait for it to exit', parseSeconds, 10)
    .action((options: { timeout: number }) => stopDaemon(context, options.timeout));

  program
    .command('status')
    .description('show whether the Coffer daemon runs, its pid, port, uptime and servers')
    .option('--json', 'print the status as JSON')
    .action((options: { json?: boolean }) => showStatus(context, options.json === true));

  program
    .command('daemon')
    .description('run the Coffer daemon in the foreground (what `coffer start` runs)')
    .action(() => {
      // src/main.ts dispatches `coffer daemon` before the CLI is loaded; reaching this
      // means the CLI was run without that entry point.
      throw new CofferError('INTERNAL', '`coffer daemon` must be run through bin/coffer.js');
    });
}

/** The tool result budget as `coffer status` shows it; undefined from a daemon that has none. */
function describeResultBudget(status: Record<string, unknown>): string | undefined {
  const budget = status['result_budget_tokens'];
  const ttl = status['result_ttl_ms'];
  if (budget === null) return 'never cut (COFFER_RESULT_BUDGET_TOKENS=off)';
  if (typeof budget !== 'number' || typeof ttl !== 'number') return undefined;
  const kept = ttl >= 60_000 ? `${Math.round(ttl / 60_000)} min` : `${Math.round(ttl / 1000)} s`;
  return `cut above ${budget.toLocaleString('en-US')} tokens, kept ${kept} to read in pages`;
}
