/** What the figures were measured on: the report and the JSON carry it. */
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface Machine {
  readonly nproc: number;
  readonly cpuModel: string;
  readonly memoryGb: number;
  readonly node: string;
  readonly platform: string;
  /** 1, 5 and 15 minute load averages. */
  readonly loadAtStart: readonly number[];
}

export function describeMachine(): Machine {
  return {
    nproc: os.availableParallelism(),
    cpuModel: cpuModel(),
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAtStart: loadAverage(),
  };
}

export function loadAverage(): number[] {
  return os.loadavg().map((load) => Math.round(load * 100) / 100);
}

function cpuModel(): string {
  try {
    const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
    return /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? 'unknown';
  } catch {
    return os.cpus()[0]?.model ?? 'unknown';
  }
}
