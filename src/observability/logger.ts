import { pino, type Logger, type DestinationStream } from 'pino';
import type { TraceContext } from './trace-context.js';
import { redactPaths } from './redaction.js';
import { sharedRotatingFile } from './rotating-file.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** A file path (created 0600 by the caller's home setup) or a stream (tests). */
  readonly destination: string | DestinationStream;
  readonly level?: string;
}

/**
 * JSON lines with secrets redacted by path. A line about a request names its trace
 * itself (`traceId`, see traceFields): the trace is passed along, not ambient.
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination =
    typeof options.destination === 'string'
      ? // Size-bounded (coffer.log, .1, .2): a long-running daemon must not fill the disk.
        sharedRotatingFile(options.destination)
      : options.destination;
  return pino(
    {
      level: options.level ?? process.env['COFFER_LOG_LEVEL'] ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactPaths, censor: '[redacted]' },
    },
    destination,
  );
}

/** The fields a log line about a request carries, so `coffer logs` can find all of them. */
export function traceFields(trace: TraceContext | undefined): {
  traceId?: string;
  sessionId?: string;
} {
  if (trace === undefined) return {};
  return { traceId: trace.traceId, ...(trace.sessionId ? { sessionId: trace.sessionId } : {}) };
}

/** A logger that drops everything: for code paths and tests that need one but not its output. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
