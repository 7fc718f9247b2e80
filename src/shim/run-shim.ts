import { cofferPaths } from '../config/home.js';
import { packageVersion } from '../discovery/package-info.js';
import { locateDaemon } from './daemon-locator.js';
import { SHIM_ERROR_CODE, errorResponse } from './json-rpc.js';
import { LineReader } from '../domain/line-reader.js';
import { Relay } from './relay.js';
import { openShimLog, type ShimLog } from './shim-log.js';
import { helloRequest, parseShimArgs } from './shim-options.js';
import { systemTimers } from './timers.js';

/**
 * `coffer shim`: an agent's MCP server on stdin/stdout, relaying every line over one
 * persistent connection to the daemon's local socket. stdout carries MCP and nothing else; the story goes to logs/shim.log.
 * Resolves with the exit code once the client is gone and the channel is closed.
 */

/** Once closed, anything still holding the event loop (a spawn in progress) is cut off. */
const EXIT_GRACE_MS = 2_000;
/** stdin ended: answers to requests already sent may still arrive this long. */
const DRAIN_ON_EOF_MS = 5_000;
const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

export async function runShim(args: readonly string[]): Promise<number> {
  const parsed = parseShimArgs(args);
  if (!parsed.ok) {
    process.stderr.write(`coffer shim: ${parsed.message}\n`);
    return 2;
  }
  process.title = 'coffer-shim';
  const paths = cofferPaths();
  const log = openShimLog(paths);
  process.on('uncaughtExceptionMonitor', (error) =>
    log.error('uncaught exception', { err: error }),
  );
  log.info('shim started', { version: packageVersion(), lean: parsed.options.lean });

  const relay = new Relay({
    write: writeLine,
    log,
    timers: systemTimers,
    daemon: {
      discover: () => locateDaemon(paths, log),
      hello: helloRequest(parsed.options),
      output: process.stdout,
    },
  });
  relay.start();
  const reason = await clientGone(relay, log);
  log.info('client gone, ending the daemon session', { reason });
  process.stdin.destroy();
  // A signal means stop now; an ended stdin lets answers already asked for arrive.
  await relay.close(reason === 'stdin closed' ? DRAIN_ON_EOF_MS : 0);
  log.info('daemon session ended');
  log.info('shim exiting');
  log.close();
  setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  return 0;
}

const NEWLINE = Buffer.from('\n');

/** A daemon's answer comes as its bytes: written as they are, with the newline in one writev. */
function writeLine(line: string | Buffer): void {
  if (typeof line === 'string') {
    process.stdout.write(`${line}\n`);
    return;
  }
  process.stdout.cork();
  process.stdout.write(line);
  process.stdout.write(NEWLINE);
  process.stdout.uncork();
}

/**
 * Feeds stdin to the relay until the client goes away. The SDK's StdioServerTransport
 * never reports stdin ending, which is why this watches the stream itself.
 */
function clientGone(relay: Relay, log: ShimLog): Promise<string> {
  return new Promise((resolve) => {
    const reader = new LineReader({
      onBytes: (line) => relay.fromClient(line),
      onOverflow: (bytes) => {
        log.warn('client message too large, dropped', { bytes });
        writeLine(
          errorResponse(null, {
            code: SHIM_ERROR_CODE.invalidRequest,
            message: 'Message too large',
          }),
        );
      },
    });
    process.stdin.on('data', (chunk: Buffer) => {
      reader.push(chunk);
      relay.holdWhileFull(process.stdin);
    });
    process.stdin.once('end', () => resolve('stdin closed'));
    process.stdin.once('close', () => resolve('stdin closed'));
    process.stdin.once('error', (error) => {
      log.warn('stdin failed', { err: error });
      resolve('stdin failed');
    });
    // EPIPE: the client is gone but its end of stdin may linger. Kept for the shim's whole
    // life: an answer arriving after the first failed write fails again, and an 'error'
    // with no listener would end the shim with a stack trace instead of its goodbye.
    let failed = false;
    process.stdout.on('error', (error) => {
      if (!failed) log.warn('stdout failed', { err: error });
      failed = true;
      resolve('stdout closed');
    });
    for (const signal of SHUTDOWN_SIGNALS) process.once(signal, () => resolve(signal));
  });
}
