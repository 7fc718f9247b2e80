import type { UpstreamProcessRepository } from '../domain/ports.js';
import type { Logger } from '../observability/logger.js';
import {
  groupAlive,
  processCommandLine,
  processStartTime,
  terminateGroup,
} from './process-group.js';

/**
 * At daemon start, ends the upstream process groups a previous daemon left behind
 * (it was SIGKILLed, or crashed). A record is trusted only if the live process still
 * has the recorded start time AND command line: a pid the OS has recycled belongs to
 * someone else and is never signalled (ADR-006).
 */
export async function sweepOrphans(
  records: UpstreamProcessRepository,
  logger: Logger,
  graceMs = 1500,
): Promise<number[]> {
  const killed: number[] = [];
  for (const record of await records.list()) {
    const started = processStartTime(record.pid);
    const commandLine = processCommandLine(record.pid);
    const same =
      started !== undefined &&
      started === record.start_time &&
      sameCommand(commandLine, record.command_line);
    // The leader is gone but its group is not: what it started lives on. A process group's
    // id is never given to another process while the group lives (POSIX), so the group is
    // still the one Coffer started, and its leader's identity is no longer needed.
    const leftInGroup = started === undefined && groupAlive(record.pid);
    if (same || leftInGroup) {
      await terminateGroup(record.pid, graceMs);
      killed.push(record.pid);
      logger.info({ pid: record.pid, server: record.server }, 'ended orphaned upstream process');
    } else if (started !== undefined) {
      logger.info({ pid: record.pid }, 'recorded pid now belongs to another process; left alone');
    }
  }
  await records.clear();
  return killed;
}

/**
 * The OS may present argv slightly differently from how it was given (joined with
 * spaces on Linux, resolved by a shell elsewhere): compare whitespace-normalised.
 */
function sameCommand(live: string | undefined, recorded: string): boolean {
  if (live === undefined) return false;
  const normal = (text: string) => text.trim().split(/\s+/).join(' ');
  return normal(live) === normal(recorded);
}
