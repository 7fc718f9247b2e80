/**
 * Readings of one process from Linux's /proc: its parent, its CPU time (utime + stime, every
 * thread of the process) and its resident memory. The parsers are pure so they can be
 * tested on captured text; the readers throw when the process is gone.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The fields of /proc/<pid>/stat after the command name, so that index 0 is field 3 (state).
 * The command name (field 2) is in parentheses and may itself hold spaces or parentheses:
 * the fields start after the LAST closing parenthesis.
 */
export function statFields(stat: string): string[] {
  const close = stat.lastIndexOf(')');
  if (close < 0) throw new Error('not a /proc/<pid>/stat line');
  return stat
    .slice(close + 1)
    .trim()
    .split(/\s+/);
}

/** Field 4 of /proc/<pid>/stat. */
export function parentPid(stat: string): number {
  return numberField(stat, 4);
}

/** utime + stime (fields 14 and 15 of /proc/<pid>/stat), in clock ticks. */
export function cpuTicks(stat: string): number {
  return numberField(stat, 14) + numberField(stat, 15);
}

function numberField(stat: string, field: number): number {
  const value = Number(statFields(stat)[field - 3]);
  if (!Number.isInteger(value)) throw new Error(`field ${field} of /proc/<pid>/stat is no number`);
  return value;
}

/** VmRSS of /proc/<pid>/status, in KiB (the process's own pages, not its children's). */
export function vmRssKb(status: string): number {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (match?.[1] === undefined) throw new Error('no VmRSS line');
  return Number(match[1]);
}

export function readStat(pid: number): string {
  return readFileSync(`/proc/${pid}/stat`, 'utf8');
}

export function rssKb(pid: number): number {
  try {
    return vmRssKb(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch (error) {
    throw new Error(`no VmRSS for pid ${pid}: ${String(error)}`);
  }
}

/** CPU time of a process so far, in microseconds. */
export function cpuMicros(pid: number): number {
  return (cpuTicks(readStat(pid)) * 1_000_000) / clockTicksPerSecond();
}

let ticksPerSecond: number | undefined;

/** `getconf CLK_TCK` (the unit of /proc CPU times), 100 when it cannot be asked. */
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
      ticksPerSecond = Number.isInteger(value) && value > 0 ? value : 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}
