import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CofferPaths } from '../config/home.js';
import { ensurePrivateDir } from '../config/private-files.js';

/**
 * The shim's log: `$COFFER_HOME/logs/shim.log`, appended, 0600, one JSON object a line
 * (pino's field names, so the daemon's log tools read both). stdout belongs to MCP and
 * agents often drop stderr, so this file is where a shim's story is told. pino is not
 * used: the shim starts on every agent launch and must stay light.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_NUMBER: Record<LogLevel, number> = { debug: 20, info: 30, warn: 40, error: 50 };

export interface ShimLog {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  close(): void;
}

export function shimLogPath(paths: CofferPaths): string {
  return join(paths.logsDir, 'shim.log');
}

function errorFields(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const code = (value as NodeJS.ErrnoException).code;
  return { type: value.name, message: value.message, ...(code === undefined ? {} : { code }) };
}

function parseLevel(text: string | undefined): LogLevel {
  return text === 'debug' || text === 'warn' || text === 'error' ? text : 'info';
}

/**
 * Opens the log once (O_APPEND, so lines of concurrent shims never interleave mid-line).
 * If the file cannot be opened the shim still runs, silently: it must not fail an agent
 * over a log.
 */
export function openShimLog(paths: CofferPaths, env: NodeJS.ProcessEnv = process.env): ShimLog {
  const threshold = LEVEL_NUMBER[parseLevel(env['COFFER_LOG_LEVEL'])];
  let fd: number | undefined;
  try {
    ensurePrivateDir(paths.logsDir);
    fd = openSync(shimLogPath(paths), 'a', 0o600);
    fchmodSync(fd, 0o600);
  } catch {
    fd = undefined;
  }
  const write = (level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void => {
    if (fd === undefined || LEVEL_NUMBER[level] < threshold) return;
    const record: Record<string, unknown> = {
      level: LEVEL_NUMBER[level],
      time: Date.now(),
      pid: process.pid,
      name: 'coffer-shim',
      msg,
    };
    for (const [key, value] of Object.entries(fields)) record[key] = errorFields(value);
    try {
      writeSync(fd, `${JSON.stringify(record)}\n`);
    } catch {
      // A full disk must not take the agent's MCP connection down.
    }
  };
  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
    close: () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
