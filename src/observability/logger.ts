import { pino, type Logger, type DestinationStream } from 'pino';
import { currentTrace } from './trace-context.js';
import { redactPaths } from './redaction.js';
import { sharedRotatingFile } from './rotating-file.js';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** A file path (created 0600 by the caller's home setup) or a stream (tests). */
  readonly destination: string | DestinationStream;
  readonly level?: string;
}

/**
 * JSON lines with the current traceId mixed into every line written inside a request
 * (AsyncLocalStorage), and secrets redacted by path.
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
      mixin() {
        const trace = currentTrace();
        return trace === undefined
          ? {}
          : { traceId: trace.traceId, ...(trace.sessionId ? { sessionId: trace.sessionId } : {}) };
      },
    },
    destination,
  );
}

/** A logger that drops everything: for code paths and tests that need one but not its output. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
