import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DAEMON_PROCESS_TITLE } from './daemon-record.js';

/**
 * Process checks for discovery: is a pid alive, and is it a Coffer daemon (its title is
 * `coffer-daemon`) rather than an unrelated process that got a recycled pid.
 */

function errorCode(error: unknown): string | undefined {
  return error !== null && typeof error === 'object' && 'code' in error
    ? String(error.code)
    : undefined;
}

/** Linux: a zombie (exited, not yet reaped) still answers kill(pid, 0) but is dead. */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // "pid (comm) S ...": comm may hold spaces and parentheses, so read after the last ')'.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    if (errorCode(error) !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

function firstArgument(commandLine: string): string {
  return (commandLine.split('\0')[0] ?? '').trim();
}

/**
 * The daemon sets `process.title = 'coffer-daemon'`, which rewrites its command line
 * (Linux: /proc/<pid>/cmdline, and /proc/<pid>/comm; macOS: `ps -o command=`).
 * Where neither is available the process is assumed to be ours.
 */
export function isCofferDaemonProcess(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (process.platform === 'linux') {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      if (firstArgument(cmdline) === DAEMON_PROCESS_TITLE) return true;
      const comm = readFileSync(`/proc/${pid}/comm`, 'latin1').trim();
      return comm === DAEMON_PROCESS_TITLE;
    } catch {
      return false;
    }
  }
  if (process.platform === 'darwin' || process.platform === 'freebsd') {
    try {
      const command = execFileSync('ps', ['-p', String(pid), '-o', 'command='], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 2_000,
      }).trim();
      return command === DAEMON_PROCESS_TITLE || command.startsWith(`${DAEMON_PROCESS_TITLE} `);
    } catch {
      return false;
    }
  }
  return true;
}
