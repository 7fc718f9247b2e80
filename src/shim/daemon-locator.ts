import type { CofferPaths } from '../config/home.js';
import { findDaemon } from '../discovery/inspect-daemon.js';
import type { DaemonEndpoint } from './daemon-http.js';
import type { ShimLog } from './shim-log.js';

/**
 * Finds the daemon of this Coffer home, or starts it through discovery's lock-serialised
 * spawn (20 shims started at once → one daemon). The spawn path (proper-lockfile,
 * child_process) is imported only when no daemon answers, which keeps the common start
 * light.
 */
export async function locateDaemon(paths: CofferPaths, log: ShimLog): Promise<DaemonEndpoint> {
  const found = await findDaemon(paths);
  if (found !== undefined) return found;
  const { ensureDaemon } = await import('../discovery/ensure-daemon.js');
  const daemon = await ensureDaemon(paths);
  log.info(daemon.spawned ? 'daemon started' : 'daemon found', {
    daemon_pid: daemon.pid,
    port: daemon.port,
  });
  return daemon;
}

/**
 * Discovery starts at once, while the client is still starting up; the first session
 * uses that result, every later one (after a daemon loss) looks afresh.
 */
export function createLocator(paths: CofferPaths, log: ShimLog): () => Promise<DaemonEndpoint> {
  let early: Promise<DaemonEndpoint> | undefined = locateDaemon(paths, log);
  // Reported when the first session needs it; a rejection here must not crash the shim.
  early.catch(() => undefined);
  return () => {
    const next = early ?? locateDaemon(paths, log);
    early = undefined;
    return next;
  };
}
