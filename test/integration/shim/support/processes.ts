import { readdirSync, readFileSync } from 'node:fs';

/**
 * Process accounting for tests that must leave nothing behind (Linux: /proc). A test's
 * processes are found by an environment variable (its COFFER_HOME, inherited by shims
 * and the daemons they spawn) or by a marker argument (upstream fixtures, which get a
 * clean environment).
 */

function readProc(pid: string, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'latin1');
  } catch {
    return undefined;
  }
}

function livePids(): string[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name) && name !== String(process.pid));
}

function isZombie(pid: string): boolean {
  const stat = readProc(pid, 'stat');
  return stat === undefined || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

/** Live processes whose environment holds NAME=value. */
export function pidsWithEnv(name: string, value: string): number[] {
  const entry = `${name}=${value}`;
  return livePids()
    .filter((pid) => readProc(pid, 'environ')?.split('\0').includes(entry) === true)
    .filter((pid) => !isZombie(pid))
    .map(Number);
}

/** Live processes with `marker` somewhere in their command line. */
export function pidsWithArg(marker: string): number[] {
  return livePids()
    .filter((pid) => readProc(pid, 'cmdline')?.includes(marker) === true)
    .filter((pid) => !isZombie(pid))
    .map(Number);
}

/** The process title (first cmdline argument) of a pid. */
export function titleOf(pid: number): string | undefined {
  return readProc(String(pid), 'cmdline')?.split('\0')[0];
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return !isZombie(String(pid));
}

export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** Kills whatever is left (a failed test must not leak into the next) and reports it. */
export function killAll(pids: readonly number[]): number[] {
  const killed: number[] = [];
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // already gone
    }
  }
  return killed;
}
