import type { Logger } from 'pino';
import { CofferError, type ErrorCode } from '../domain/errors.js';
import { traceFields } from './logger.js';
import type { TraceContext } from './trace-context.js';

/** Failures of what Coffer relays to, not of the caller's request: worth a warning. */
const UPSTREAM_SIDE: ReadonlySet<ErrorCode> = new Set([
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_SESSION_EXPIRED',
  'PROCESS_LIMIT_REACHED',
  'AUTH_REQUIRED',
  'SECRET_NOT_FOUND',
  'STORE_FAILURE',
]);

/** A text with whatever must not be written down (stored secrets) taken out. */
export type LoggedText = (text: string) => string;

/**
 * One line in the daemon log for a request that failed. A CofferError is an outcome
 * Coffer knows (a disabled tool, an unknown name, an upstream that is down): its code,
 * message and hint say it all, and its stack would only say where Coffer noticed, so it
 * is left out; a refusal of the caller's own request is `info`, the client got the
 * answer. Anything else is a bug: `error`, with the stack. The method and message may
 * quote what the client sent (a tool's name), so they pass `text` first.
 */
export function logRequestFailure(
  logger: Logger,
  method: string,
  error: unknown,
  trace?: TraceContext,
  text: LoggedText = (same) => same,
): void {
  if (error instanceof CofferError && error.code !== 'INTERNAL') {
    const fields = {
      method: text(method),
      code: error.code,
      ...(error.hint === undefined ? {} : { hint: text(error.hint) }),
      ...traceFields(trace),
    };
    const line = text(`${method} failed: ${error.message}`);
    if (UPSTREAM_SIDE.has(error.code)) logger.warn(fields, line);
    else logger.info(fields, line);
    return;
  }
  logger.error(
    { err: loggedError(error, text), method: text(method), ...traceFields(trace) },
    'request failed',
  );
}

/**
 * The error itself when `text` changes none of its words; else only its type, message and
 * stack, passed through `text` (its cause and fields may hold the same words unchanged).
 */
function loggedError(error: unknown, text: LoggedText): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? text(error) : error;
  const stack = error.stack ?? '';
  if (text(error.message) === error.message && text(stack) === stack) return error;
  return { type: error.name, message: text(error.message), stack: text(stack) };
}
