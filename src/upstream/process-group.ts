import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/**
 * Upstreams run in their own process group (spawned detached), so a whole tree —
 * `npx` or `sh -c` wrappers and what they start — is signalled at once.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0);
}

/**
 * SIGTERM to the group, then SIGKILL to whatever is left after `graceMs`. Resolves once
 * the group is gone or SIGKILL was sent.
 */
export async function terminateGroup(pid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    if (!groupAlive(pid)) return;
  }
  signalGroup(pid, 'SIGKILL');
}

/**
 * When the process started, as the OS reports it: with the pid, an identity a recycled
 * pid cannot fake. undefined when the process is gone, or has exited and awaits a parent
 * that no longer reaps (a zombie: its command line is empty, and it runs nothing).
 */
export function processStartTime(pid: number): string | undefined {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Field 2 (comm) may contain spaces and parentheses: count fields after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') return undefined;
      return fields[19];
    } catch {
      return undefined;
    }
  }
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8' });
    return out.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The command line of a live process, for the orphan sweep's second identity check. */
export function processCommandLine(pid: number): string | undefined {
  if (process.platform === 'linux') {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      return undefined;
    }
  }
  try {
    const out = execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { encoding: 'utf8' });
    return out.trim() || undefined;
  } catch {
    return undefined;
  }
}
