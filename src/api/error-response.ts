import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { CofferError, toCofferError, type ErrorCode } from '../domain/errors.js';
import type { Logger } from '../observability/logger.js';
import { statusForCode } from './error-status.js';
import { traceOf } from './request-context.js';

/** The body of every error the API answers. */
export interface ApiErrorBody {
  readonly error: {
    readonly code: ErrorCode;
    readonly message: string;
    readonly hint?: string;
    readonly traceId: string;
  };
}

const GENERIC_MESSAGE = 'Internal error; see logs/coffer.log for details';

/** hono's own exceptions (from its middleware) carry a status but no Coffer code. */
function fromHttpException(error: HTTPException): CofferError {
  const byStatus: Partial<Record<number, ErrorCode>> = {
    400: 'INVALID_INPUT',
    401: 'UNAUTHORIZED',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    413: 'PAYLOAD_TOO_LARGE',
  };
  const code = byStatus[error.status] ?? 'INTERNAL';
  return new CofferError(code, error.message || 'Request failed', { cause: error });
}

/**
 * Builds the error response. INTERNAL never echoes what failed (its text may hold paths
 * or secrets): the body says "see the log" and the cause is logged under the same
 * traceId. Other codes carry messages written for users (STORE_FAILURE included: the
 * store keeps SQLite's own text in `cause`).
 */
export function errorResponse(c: Context, thrown: unknown, logger: Logger): Response {
  const error = thrown instanceof HTTPException ? fromHttpException(thrown) : toCofferError(thrown);
  const status = statusForCode(error.code);
  const { traceId } = traceOf(c);
  const internal = error.code === 'INTERNAL';
  if (status >= 500) {
    logger.error({ err: error.cause ?? error, code: error.code, traceId }, 'API request failed');
  }
  const body: ApiErrorBody = {
    error: {
      code: error.code,
      message: internal ? GENERIC_MESSAGE : error.message,
      ...(error.hint === undefined || internal ? {} : { hint: error.hint }),
      traceId,
    },
  };
  return c.json(body, status);
}
