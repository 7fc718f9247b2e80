import type { UpstreamProcessRepository } from '../domain/ports.js';
import type { Logger } from '../observability/logger.js';
import { processStartTime } from '../upstream/process-group.js';
import type { ProcessTracker } from '../upstream/upstream-connector.js';

/**
 * Persists each upstream process while it lives, so a daemon that dies without
 * cleaning up can be cleaned up after by the next one (src/upstream/orphan-sweep.ts).
 * Writes are fire-and-forget: a failed record must not fail the spawn.
 */
export function trackProcesses(records: UpstreamProcessRepository, logger: Logger): ProcessTracker {
  return {
    spawned({ pid, server, commandLine, sessionId }) {
      const startTime = processStartTime(pid);
      if (startTime === undefined) return;
      records
        .record({
          pid,
          start_time: startTime,
          command_line: commandLine,
          server,
          session_id: sessionId,
        })
        .catch((error: unknown) =>
          logger.warn({ err: error, pid }, 'could not record upstream process'),
        );
    },
    exited(pid) {
      records
        .remove(pid)
        .catch((error: unknown) =>
          logger.warn({ err: error, pid }, 'could not forget upstream process'),
        );
    },
  };
}
