/**
 * Daemon discovery for clients (CLI, shim): find the running daemon of a Coffer home,
 * or start one. Kept small (node built-ins, proper-lockfile, domain, config): the shim
 * imports it on every agent start.
 */
export {
  DAEMON_FILE_VERSION,
  DAEMON_HOST,
  DAEMON_PROCESS_TITLE,
  daemonBaseUrl,
  daemonInfoFromRecord,
  parseDaemonRecord,
  serializeDaemonRecord,
  type DaemonInfo,
  type DaemonRecord,
  type DaemonRecordParse,
} from './daemon-record.js';
export {
  canConnect,
  findDaemon,
  inspectDaemon,
  type DaemonState,
  type InspectOptions,
} from './inspect-daemon.js';
export {
  DEFAULT_ENSURE_TIMEOUT_MS,
  backUpDaemonFile,
  ensureDaemon,
  type EnsureDaemonOptions,
  type EnsuredDaemon,
} from './ensure-daemon.js';
export { daemonStdioLogPath } from './daemon-stdio-log.js';
export { isCofferDaemonProcess, isProcessAlive } from './process-check.js';
export { defaultBinaryPath, packageVersion } from './package-info.js';
