/**
 * Every process the bench starts, so that all of them are gone at the end: children are
 * tracked by pid and only ever signalled after checking they are still ours. Also the
 * descendants of a process (from /proc), which the memory and fan-out figures use.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPid, readStat } from './proc-readings.js';

/** Every Coffer home the bench creates starts with this (mkdtemp prefix). */
export const HOME_PREFIX = join(tmpdir(), 'coffer-bench-');

/** Pids of processes the bench started, directly or through an SDK transport. */
const owned = new Set<number>();

/**
 * Every process the bench starts runs in a session of its own (`detached`), as Coffer's
 * upstreams and a shim-started daemon do: with the kernel's autogroup scheduling a process
 * left in the bench's session would share ONE CPU share with the bench and its siblings,
 * and on a busy machine the targets would not be scheduled alike.
 */
export function spawnOwned(command: string, args: readonly string[], options: SpawnOptions) {
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid !== undefined) adopt(child.pid);
  return child;
}

/** A command line that runs in its own session, for spawners without `detached` (the SDK). */
export function ownSession(command: string, args: readonly string[]) {
  return existsSync(SETSID) ? { command: SETSID, args: [command, ...args] } : { command, args };
}

/** util-linux setsid execs in place (same pid) when its caller is no group leader. */
const SETSID = '/usr/bin/setsid';

/** Records a pid started on the bench's behalf (an SDK transport's child, a daemon). */
export function adopt(pid: number): void {
  owned.add(pid);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export async function waitGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child has exited. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Kills whatever the bench started and is still alive (our own pids only). */
export async function killLeftovers(): Promise<number[]> {
  const alive = [...owned].filter((pid) => isAlive(pid) && startedByUs(pid));
  for (const pid of alive) signal(pid, 'SIGTERM');
  await Promise.all(alive.map((pid) => waitGone(pid, 3_000)));
  for (const pid of alive) if (isAlive(pid)) signal(pid, 'SIGKILL');
  return alive;
}

/** Our child, or (a daemon a shim started) a process whose COFFER_HOME is a bench home. */
function startedByUs(pid: number): boolean {
  if (parentOf(pid) === process.pid) return true;
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(`COFFER_HOME=${HOME_PREFIX}`);
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function parentOf(pid: number): number | undefined {
  try {
    return parentPid(readStat(pid));
  } catch {
    return undefined;
  }
}

/** Every live descendant of `pid` (children, grandchildren, …). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() ?? -1) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}
