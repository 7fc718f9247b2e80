/**
 * Daemon memory: VmRSS of the daemon process alone (upstream processes are separate
 * processes and not counted), idle and with sessions open; and how many upstream processes
 * each session costs (Coffer starts one connection per upstream per session, ADR-005).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { startDaemon } from './daemon.js';
import { rssKb } from './proc-readings.js';
import { descendants } from './processes.js';
import { median } from './stats.js';
import { cofferHttpTransport, openSession, safeCall, type BenchSession } from './targets.js';
import type { UpstreamSpec } from './upstreams.js';

export interface MemoryProfile {
  readonly extraSessions: number;
}

export interface MemoryResult {
  /** One server registered, no session (MB). */
  readonly idleMb: number;
  readonly oneSessionMb: number;
  readonly sessions: number;
  readonly allSessionsMb: number;
  /** (RSS with 1 + N sessions − RSS with 1) / N. */
  readonly perExtraSessionMb: number;
  readonly upstreamProcessesPerSession: number;
}

export async function measureMemory(
  upstream: UpstreamSpec,
  profile: MemoryProfile,
  cpuProfDir: string | undefined,
): Promise<MemoryResult> {
  const daemon = await startDaemon({ cpuProfDir });
  const sessions: BenchSession[] = [];
  const tool = `${upstream.name}__${upstream.tool}`;
  const open = async (): Promise<void> => {
    const session = await openSession(cofferHttpTransport(daemon), tool, upstream.arguments);
    sessions.push(session);
    if (!(await safeCall(session))) throw new Error(`${tool} failed through /mcp`);
  };
  try {
    await daemon.addServer({ name: upstream.name, command: upstream.command, args: upstream.args });
    const idle = await settledRss(daemon.pid);
    await open();
    const one = await settledRss(daemon.pid);
    for (let i = 0; i < profile.extraSessions; i++) await open();
    const all = await settledRss(daemon.pid);
    const upstreams = descendants(daemon.pid).length;
    return {
      idleMb: idle,
      oneSessionMb: one,
      sessions: sessions.length,
      allSessionsMb: all,
      perExtraSessionMb: (all - one) / profile.extraSessions,
      upstreamProcessesPerSession: upstreams / sessions.length,
    };
  } finally {
    await Promise.allSettled(sessions.map((session) => session.close()));
    await daemon.stop();
  }
}

/** After a short pause, the median of five readings 100 ms apart (MB). */
async function settledRss(pid: number): Promise<number> {
  await sleep(500);
  const readings: number[] = [];
  for (let i = 0; i < 5; i++) {
    readings.push(rssKb(pid) / 1024);
    await sleep(100);
  }
  return median(readings);
}
