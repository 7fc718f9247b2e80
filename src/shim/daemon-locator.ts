import type { CofferPaths } from '../config/home.js';
import type { DaemonInfo } from '../discovery/daemon-record.js';
import { findDaemon } from '../discovery/inspect-daemon.js';
import { CofferError } from '../domain/errors.js';
import type { DaemonEndpoint } from './daemon-channel.js';
import type { ShimLog } from './shim-log.js';

/**
 * Finds the daemon of this Coffer home, or starts it through discovery's lock-serialised
 * spawn (20 shims started at once → one daemon). The spawn path (proper-lockfile,
 * child_process) is imported only when no daemon answers, which keeps the common start
 * light.
 */
export async function locateDaemon(paths: CofferPaths, log: ShimLog): Promise<DaemonEndpoint> {
  const found = await findDaemon(paths);
  if (found !== undefined) return endpointOf(found);
  const { ensureDaemon } = await import('../discovery/ensure-daemon.js');
  const daemon = await ensureDaemon(paths);
  log.info(daemon.spawned ? 'daemon started' : 'daemon found', {
    daemon_pid: daemon.pid,
    socket: daemon.socket ?? null,
  });
  return endpointOf(daemon);
}

/**
 * A daemon.json without `socket` was written by a daemon older than this shim, which
 * serves the shim over HTTP only. The shim does not stop it (an older daemon may serve
 * other agents): the user does, and the next message starts the current one.
 */
export function endpointOf(info: DaemonInfo): DaemonEndpoint {
  if (info.socket === undefined) {
    throw new CofferError(
      'DAEMON_UNAVAILABLE',
      `The running Coffer daemon (pid ${info.pid}) is older than this shim and has no local socket`,
      { hint: 'run `coffer stop`, then retry: the shim starts the current daemon' },
    );
  }
  return { pid: info.pid, socket: info.socket, token: info.token };
}
