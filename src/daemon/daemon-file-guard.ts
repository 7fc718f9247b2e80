import type { CofferPaths } from '../config/home.js';
import type { DaemonRecord } from '../discovery/daemon-record.js';
import { isCofferDaemonProcess } from '../discovery/process-check.js';
import type { Logger } from '../observability/logger.js';
import { readDaemonRecord, writeDaemonFile } from './daemon-file.js';

/**
 * daemon.json is how every client finds this daemon. If it goes (a clean-up script, a
 * user tidying the home), nothing could reach this daemon and the next client would
 * start a second one on the same database. So the daemon watches its file: a missing or
 * damaged one is written again; one that names another live Coffer daemon means that
 * daemon now owns the home, and this one steps aside (its clients reconnect to the
 * other, as after any daemon restart).
 */

export interface DaemonFileGuardOptions {
  readonly paths: CofferPaths;
  readonly record: DaemonRecord;
  readonly logger: Logger;
  /** Another live daemon owns the home now: stop this one. */
  readonly onReplaced: (pid: number) => void;
  readonly intervalMs?: number;
  /** Whether `pid` is a live Coffer daemon (not a recycled pid). */
  readonly isDaemon?: (pid: number) => boolean;
}

export type GuardOutcome = 'ours' | 'rewritten' | 'replaced';

const DEFAULT_INTERVAL_MS = 2_000;

export function guardDaemonFile(options: DaemonFileGuardOptions): { stop(): void } {
  const timer = setInterval(() => {
    try {
      checkDaemonFile(options);
    } catch (error) {
      options.logger.warn({ err: error }, 'could not check daemon.json');
    }
  }, options.intervalMs ?? DEFAULT_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** One look at daemon.json, acting on what it finds. */
export function checkDaemonFile(options: DaemonFileGuardOptions): GuardOutcome {
  const { paths, record, logger } = options;
  const found = readDaemonRecord(paths);
  if (found?.token === record.token) return 'ours';
  const isDaemon = options.isDaemon ?? isCofferDaemonProcess;
  if (found !== undefined && found.pid !== record.pid && isDaemon(found.pid)) {
    logger.warn({ other_pid: found.pid }, 'daemon.json names another live daemon: stepping aside');
    options.onReplaced(found.pid);
    return 'replaced';
  }
  writeDaemonFile(paths, record);
  logger.warn(
    { found: found === undefined ? 'missing or damaged' : `stale (pid ${found.pid})` },
    'daemon.json was not this daemon’s: written again',
  );
  return 'rewritten';
}
