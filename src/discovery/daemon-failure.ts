import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { CofferPaths } from '../config/home.js';
import { CofferError, type ErrorCode } from '../domain/errors.js';

/**
 * Why a daemon that discovery spawned exited before serving, read from what it left
 * behind: its last stdio line (`coffer: <message> (<hint>)`) and the code of its
 * "daemon failed to start" entry in logs/coffer.log.
 */

/** Where a log file ends now: failures are read from there on, never from older runs. */
export function logOffset(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** At most the last 8 KiB written to `path` since `offset`. */
function tailSince(path: string, offset: number): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    const start = Math.max(offset, size - 8_192);
    const buffer = Buffer.alloc(Math.max(0, size - start));
    readSync(fd, buffer, 0, buffer.length, start);
    return buffer.toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function nonEmptyLines(text: string | undefined): string[] {
  return (text ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * Failures the user fixes on their machine (free a port or set COFFER_PORT_RANGE; make
 * the home writable) keep their own stable code through discovery, so a shim's client
 * and the CLI both see PORT_RANGE_EXHAUSTED or STORE_FAILURE. Anything else is reported
 * as DAEMON_UNAVAILABLE: the daemon could not start.
 */
const SURFACED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'PORT_RANGE_EXHAUSTED',
  'STORE_FAILURE',
]);

function failureCode(daemonLog: string, offset: number): ErrorCode {
  for (const line of nonEmptyLines(tailSince(daemonLog, offset)).reverse()) {
    try {
      const entry = JSON.parse(line) as { msg?: unknown; err?: { code?: unknown } };
      if (entry.msg !== 'daemon failed to start') continue;
      const code = entry.err?.code as ErrorCode;
      return SURFACED.has(code) ? code : 'DAEMON_UNAVAILABLE';
    } catch {
      // A torn line: keep looking.
    }
  }
  return 'DAEMON_UNAVAILABLE';
}

export interface SpawnedExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface FailureLogs {
  readonly stdioLog: string;
  readonly stdioOffset: number;
  readonly daemonLogOffset: number;
}

/** The error for a spawned daemon that exited before serving, with its own reason and hint. */
export function spawnedDaemonFailure(
  paths: CofferPaths,
  exit: SpawnedExit,
  logs: FailureLogs,
): CofferError {
  const how = exit.signal !== null ? `signal ${exit.signal}` : `code ${String(exit.code)}`;
  const reason = nonEmptyLines(tailSince(logs.stdioLog, logs.stdioOffset))
    .at(-1)
    ?.replace(/^coffer: /, '');
  // The daemon's last line is `coffer: <message> (<hint>)`: keep its hint as ours.
  const split = reason === undefined ? undefined : /^(.*?) \(([^()]*)\)$/.exec(reason);
  const message = split?.[1] ?? reason;
  const hint = split?.[2];
  return new CofferError(
    failureCode(paths.daemonLog, logs.daemonLogOffset),
    `The Coffer daemon exited (${how}) before serving${message === undefined ? '' : `: ${message}`}`,
    { hint: hint === undefined ? `see ${logs.stdioLog}` : `${hint}; see ${logs.stdioLog}` },
  );
}
