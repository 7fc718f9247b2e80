/**
 * The discovery file `$COFFER_HOME/daemon.json` (research notes, "Daemon discovery file
 * format"): written by the daemon once it serves, read by every client (CLI, shim).
 * This module is the one definition of its format, shared by both sides.
 */

export const DAEMON_FILE_VERSION = 1;

/** The title the daemon process sets; discovery checks it to detect a recycled pid. */
export const DAEMON_PROCESS_TITLE = 'coffer-daemon';

/** The loopback address the daemon binds and clients dial. */
export const DAEMON_HOST = '127.0.0.1';

/** daemon.json as written on disk (snake_case: it is a file format, not an API). */
export interface DaemonRecord {
  readonly version: typeof DAEMON_FILE_VERSION;
  readonly pid: number;
  readonly port: number;
  /** 32 URL-safe random characters: the bearer token of every endpoint but /healthz. */
  readonly token: string;
  /** ISO 8601. */
  readonly started_at: string;
  readonly binary_path: string;
  /**
   * The local socket (or Windows named pipe) of the shim's persistent channel
   * (src/config/socket-path.ts). Optional: older daemons do not write it.
   */
  readonly socket?: string;
  /**
   * The home this daemon serves, resolved (symbolic links followed). A home copied with its
   * daemon.json names the original's daemon: without this, its CLI and shims would manage
   * and use that one. Optional: older daemons do not write it.
   */
  readonly home?: string;
}

/** A daemon that was found serving, as clients use it. */
export interface DaemonInfo {
  readonly pid: number;
  readonly port: number;
  readonly token: string;
  readonly startedAt: string;
  readonly binaryPath: string;
  /** daemon.json `socket`, when the daemon listens on one. */
  readonly socket?: string;
  /** `http://127.0.0.1:PORT` */
  readonly baseUrl: string;
  /** `http://127.0.0.1:PORT/mcp`: the aggregated MCP endpoint. */
  readonly mcpUrl: string;
}

export type DaemonRecordParse =
  | { readonly ok: true; readonly record: DaemonRecord }
  | { readonly ok: false; readonly reason: string };

const TOKEN_PATTERN = /^[A-Za-z0-9_-]+$/;

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/**
 * Parses and validates daemon.json. Unknown fields are tolerated (and dropped); a
 * version other than 1 is reported as invalid, so the client backs the file up and
 * spawns a daemon it understands.
 */
export function parseDaemonRecord(text: string): DaemonRecordParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'it is not valid JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, reason: 'it is not a JSON object' };
  }
  const fields = value as Record<string, unknown>;
  const { version, pid, port, token, started_at: startedAt, binary_path: binaryPath } = fields;
  if (version !== DAEMON_FILE_VERSION) {
    return { ok: false, reason: `unsupported version ${JSON.stringify(version) ?? 'undefined'}` };
  }
  if (!isPositiveInteger(pid)) return { ok: false, reason: '"pid" is not a positive integer' };
  if (!isPositiveInteger(port) || port > 65_535) {
    return { ok: false, reason: '"port" is not a TCP port number' };
  }
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) {
    return { ok: false, reason: '"token" is not a URL-safe string' };
  }
  if (typeof startedAt !== 'string' || Number.isNaN(Date.parse(startedAt))) {
    return { ok: false, reason: '"started_at" is not an ISO 8601 date' };
  }
  if (typeof binaryPath !== 'string') return { ok: false, reason: '"binary_path" is not a string' };
  const { socket, home } = fields;
  if (socket !== undefined && typeof socket !== 'string')
    return { ok: false, reason: '"socket" is not a string' };
  if (home !== undefined && typeof home !== 'string')
    return { ok: false, reason: '"home" is not a string' };
  return {
    ok: true,
    record: {
      version: DAEMON_FILE_VERSION,
      pid,
      port,
      token,
      started_at: startedAt,
      binary_path: binaryPath,
      ...(socket === undefined ? {} : { socket }),
      ...(home === undefined ? {} : { home }),
    },
  };
}

export function serializeDaemonRecord(record: DaemonRecord): string {
  const ordered: DaemonRecord = {
    version: record.version,
    pid: record.pid,
    port: record.port,
    token: record.token,
    started_at: record.started_at,
    binary_path: record.binary_path,
    ...(record.socket === undefined ? {} : { socket: record.socket }),
    ...(record.home === undefined ? {} : { home: record.home }),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

export function daemonBaseUrl(port: number): string {
  return `http://${DAEMON_HOST}:${port}`;
}

export function daemonInfoFromRecord(record: DaemonRecord): DaemonInfo {
  const baseUrl = daemonBaseUrl(record.port);
  return {
    pid: record.pid,
    port: record.port,
    token: record.token,
    startedAt: record.started_at,
    binaryPath: record.binary_path,
    ...(record.socket === undefined ? {} : { socket: record.socket }),
    baseUrl,
    mcpUrl: `${baseUrl}/mcp`,
  };
}
