import { readFileSync, realpathSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import type { CofferPaths } from '../config/home.js';
import { CofferError } from '../domain/errors.js';
import {
  DAEMON_HOST,
  daemonInfoFromRecord,
  parseDaemonRecord,
  type DaemonInfo,
  type DaemonRecord,
} from './daemon-record.js';
import { homeAccessError } from './home-access.js';
import { isCofferDaemonProcess, isProcessAlive } from './process-check.js';

/**
 * What discovery found, step by step as in the research notes: each state but
 * `running` sends a client to the spawn flow.
 */
export type DaemonState =
  | { readonly state: 'missing' }
  | { readonly state: 'invalid'; readonly reason: string }
  | { readonly state: 'dead'; readonly record: DaemonRecord }
  | { readonly state: 'foreign'; readonly record: DaemonRecord }
  /** daemon.json names the daemon of another home: this one was copied from it. */
  | { readonly state: 'elsewhere'; readonly record: DaemonRecord }
  | { readonly state: 'unreachable'; readonly record: DaemonRecord }
  | { readonly state: 'running'; readonly record: DaemonRecord; readonly info: DaemonInfo };

export interface InspectOptions {
  /** How long a TCP connect may take before the daemon counts as unreachable. */
  readonly connectTimeoutMs?: number;
}

/** Resolves true when something accepts a TCP connection on 127.0.0.1:port. */
export function canConnect(port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: DAEMON_HOST, port });
    const finish = (result: boolean): void => {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

function readDaemonFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw homeAccessError(dirname(path), error);
    throw new CofferError('DAEMON_UNAVAILABLE', `Cannot read ${path}`, {
      hint: 'check the permissions of your Coffer home',
      cause: error,
    });
  }
}

/** The two paths name one folder; a path that cannot be resolved names none. */
function sameFolder(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** Reads daemon.json and runs the discovery checks, without side effects. */
export async function inspectDaemon(
  paths: CofferPaths,
  options: InspectOptions = {},
): Promise<DaemonState> {
  const text = readDaemonFile(paths.daemonFile);
  if (text === undefined) return { state: 'missing' };
  const parsed = parseDaemonRecord(text);
  if (!parsed.ok) return { state: 'invalid', reason: parsed.reason };
  const { record } = parsed;
  if (record.home !== undefined && !sameFolder(record.home, paths.home))
    return { state: 'elsewhere', record };
  if (!isProcessAlive(record.pid)) return { state: 'dead', record };
  if (!isCofferDaemonProcess(record.pid)) return { state: 'foreign', record };
  if (!(await canConnect(record.port, options.connectTimeoutMs))) {
    return { state: 'unreachable', record };
  }
  return { state: 'running', record, info: daemonInfoFromRecord(record) };
}

/** The running daemon of this home, or undefined. Never spawns. */
export async function findDaemon(
  paths: CofferPaths,
  options: InspectOptions = {},
): Promise<DaemonInfo | undefined> {
  const found = await inspectDaemon(paths, options);
  return found.state === 'running' ? found.info : undefined;
}
