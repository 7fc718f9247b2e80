import { fchmodSync, openSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CofferPaths } from '../config/home.js';
import { ensurePrivateDir } from '../config/private-files.js';

/**
 * logs/daemon-stdio.log: what a spawned daemon prints on stdout and stderr, read back
 * when its start fails (daemon-failure.ts). The daemon's own log, coffer.log, rotates
 * itself; this one is opened by whoever spawns the daemon, so it is kept bounded there.
 * A daemon that fails at every start (an agent relaunching a shim all day) adds a trace
 * each time, and nothing else ever trims the file.
 */
const DAEMON_STDIO_MAX_BYTES = 1024 * 1024;

/** Where a spawned daemon's stdout/stderr go (its structured log is logs/coffer.log). */
export function daemonStdioLogPath(paths: CofferPaths): string {
  return join(paths.logsDir, 'daemon-stdio.log');
}

/**
 * Opens the file for the next daemon to append to (0600). Past `maxBytes` it first
 * becomes daemon-stdio.log.1, the older `.1` dropped: the last start or two stay
 * readable. Called under daemon.lock, by one spawner at a time.
 */
export function openDaemonStdioLog(
  paths: CofferPaths,
  maxBytes: number = DAEMON_STDIO_MAX_BYTES,
): number {
  const path = daemonStdioLogPath(paths);
  ensurePrivateDir(paths.logsDir);
  if (sizeOf(path) >= maxBytes) {
    try {
      renameSync(path, `${path}.1`);
    } catch {
      // Still held open elsewhere (Windows) or not ours to move: keep appending.
    }
  }
  const fd = openSync(path, 'a', 0o600);
  fchmodSync(fd, 0o600);
  return fd;
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
