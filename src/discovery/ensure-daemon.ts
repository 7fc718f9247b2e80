import { spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import lockfile from 'proper-lockfile';
import type { CofferPaths } from '../config/home.js';
import { ensurePrivateDir } from '../config/private-files.js';
import { CofferError } from '../domain/errors.js';
import type { DaemonInfo } from './daemon-record.js';
import { logOffset, spawnedDaemonFailure } from './daemon-failure.js';
import { daemonStdioLogPath, openDaemonStdioLog } from './daemon-stdio-log.js';
import { withHomeAccess } from './home-access.js';
import { inspectDaemon } from './inspect-daemon.js';
import { defaultBinaryPath } from './package-info.js';

export interface EnsureDaemonOptions {
  /** The `bin/coffer.js` to run as `node <binaryPath> daemon`; defaults to this installation's. */
  readonly binaryPath?: string;
  /** Environment of a spawned daemon (COFFER_HOME is always set to `paths.home`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Upper bound for waiting on the lock plus starting the daemon. Default 60 s. */
  readonly timeoutMs?: number;
}

export interface EnsuredDaemon extends DaemonInfo {
  /** True when this call started the daemon. */
  readonly spawned: boolean;
}

/**
 * A daemon's cold start (node, SQLite, migrations) took most of a minute on a busy 2-core
 * machine; one that fails says so at once (its exit is seen), so only a hung start waits
 * this long.
 */
export const DEFAULT_ENSURE_TIMEOUT_MS = 60_000;
/** A lock whose holder stopped refreshing it for this long is taken over. */
const LOCK_STALE_MS = 5_000;
const POLL_MS = 50;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function timedOut(what: string, paths: CofferPaths): CofferError {
  return new CofferError('DAEMON_UNAVAILABLE', `Timed out ${what}`, {
    hint: `see ${paths.daemonLog} and ${daemonStdioLogPath(paths)}`,
  });
}

/** `daemon.lock` must exist for proper-lockfile (it resolves the real path). */
function ensureLockFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
}

/**
 * Moves an unreadable daemon.json aside (`daemon.json.bak-<timestamp>`) so it can be
 * looked at later; called under the lock only.
 */
export function backUpDaemonFile(paths: CofferPaths, now: Date = new Date()): string | undefined {
  const backup = `${paths.daemonFile}.bak-${now.toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(paths.daemonFile, backup);
    return backup;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

type LockOutcome =
  | { readonly kind: 'locked'; readonly release: () => Promise<void> }
  | { readonly kind: 'found'; readonly info: DaemonInfo };

/**
 * Takes `daemon.lock`, retrying with backoff until the deadline. While waiting, another
 * process may finish spawning: then its daemon is returned and no lock is taken.
 */
async function lockOrFind(paths: CofferPaths, deadline: number): Promise<LockOutcome> {
  let delay = 25;
  for (;;) {
    try {
      const release = await lockfile.lock(paths.lockFile, {
        stale: LOCK_STALE_MS,
        retries: 0,
        // A lost lock (e.g. the event loop stalled for > stale) must not throw from a
        // timer: at worst two spawns race, and the second daemon refuses to start.
        onCompromised: () => undefined,
      });
      return { kind: 'locked', release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') {
        throw new CofferError('DAEMON_UNAVAILABLE', `Cannot lock ${paths.lockFile}`, {
          hint: 'check the permissions of your Coffer home',
          cause: error,
        });
      }
    }
    const found = await inspectDaemon(paths);
    if (found.state === 'running') return { kind: 'found', info: found.info };
    if (Date.now() >= deadline)
      throw timedOut('waiting for another process to start the daemon', paths);
    await sleep(delay);
    delay = Math.min(delay * 2, 250);
  }
}

/**
 * Starts `node <binaryPath> daemon` detached, then waits until it serves, or until it
 * exits while another daemon serves the home (`spawned: false`).
 */
async function spawnDaemon(
  paths: CofferPaths,
  options: EnsureDaemonOptions,
  deadline: number,
): Promise<EnsuredDaemon> {
  const stdioLog = daemonStdioLogPath(paths);
  const fd = withHomeAccess(paths.home, () => openDaemonStdioLog(paths));
  let offset: number;
  const daemonLogOffset = logOffset(paths.daemonLog);
  let child;
  try {
    offset = fstatSync(fd).size;
    child = spawn(process.execPath, [options.binaryPath ?? defaultBinaryPath(), 'daemon'], {
      detached: true,
      stdio: ['ignore', fd, fd],
      env: { ...(options.env ?? process.env), COFFER_HOME: paths.home },
      cwd: homedir(),
      windowsHide: true,
    });
  } finally {
    closeSync(fd);
  }
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let spawnError: Error | undefined;
  child.once('exit', (code, signal) => {
    exit = { code, signal };
  });
  child.once('error', (error) => {
    spawnError = error;
  });
  child.unref();

  for (;;) {
    // Noted before the look, so a child that exits during it gets one more look.
    const exited = exit;
    const found = await inspectDaemon(paths);
    const ours = found.state === 'running' && found.info.pid === child.pid;
    // While our child lives, another daemon named in daemon.json is not the answer: the
    // child may still take the home over (it writes its own file), and a caller told
    // "running" must not leave a second daemon starting behind its back.
    if (found.state === 'running' && (ours || exited !== undefined || spawnError !== undefined)) {
      return { ...found.info, spawned: ours };
    }
    if (spawnError !== undefined) {
      throw new CofferError('DAEMON_UNAVAILABLE', 'Could not start the Coffer daemon', {
        hint: spawnError.message,
        cause: spawnError,
      });
    }
    if (exited !== undefined) {
      throw spawnedDaemonFailure(paths, exited, { stdioLog, stdioOffset: offset, daemonLogOffset });
    }
    if (Date.now() >= deadline) throw timedOut('waiting for the Coffer daemon to start', paths);
    if (exit === undefined) await sleep(POLL_MS);
  }
}

/**
 * Finds the daemon of this home or starts one (research notes' discovery sequence):
 * missing, invalid (backed up), dead pid, pid of another program, TCP refused → spawn;
 * else connect. Spawns are serialised across processes by `daemon.lock`, and the state
 * is checked again once the lock is held.
 */
export async function ensureDaemon(
  paths: CofferPaths,
  options: EnsureDaemonOptions = {},
): Promise<EnsuredDaemon> {
  const first = await inspectDaemon(paths);
  if (first.state === 'running') return { ...first.info, spawned: false };

  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_ENSURE_TIMEOUT_MS);
  withHomeAccess(paths.home, () => {
    ensurePrivateDir(paths.home);
    ensureLockFile(paths.lockFile);
  });
  const outcome = await lockOrFind(paths, deadline);
  if (outcome.kind === 'found') return { ...outcome.info, spawned: false };
  try {
    const again = await inspectDaemon(paths);
    if (again.state === 'running') return { ...again.info, spawned: false };
    if (again.state === 'invalid') backUpDaemonFile(paths);
    return await spawnDaemon(paths, options, deadline);
  } finally {
    await outcome.release().catch(() => undefined);
  }
}
