import type { Logger } from '../observability/logger.js';
import { logRequestFailure } from '../observability/request-failure.js';
import type { TraceContext } from '../observability/trace-context.js';
import type { SecretGuard } from '../gateway/secret-guard.js';
import { UNCHECKED_TEXT } from './guarded-activity.js';

export type FailureLog = (method: string, error: unknown, trace?: TraceContext) => void;

/**
 * The gateway's failure line (observability/request-failure.ts) without a stored secret:
 * its message quotes what the client asked for ("Unknown tool …"), and a client may ask
 * for a tool named like the user's token. Written at once when the guard's matcher is
 * built, else once it is.
 */
export function guardedFailureLog(
  logger: Logger,
  guard: Pick<SecretGuard, 'withTextRedaction'>,
): FailureLog {
  return (method, error, trace) =>
    guard.withTextRedaction(
      (text) => logRequestFailure(logger, method, error, trace, text),
      () => UNCHECKED_TEXT,
    );
}
