import type { ServerResponse } from 'node:http';
import { isCofferError, type ErrorCode } from '../domain/errors.js';
import { requestTrace } from '../observability/request-trace.js';
import type { TraceContext } from '../observability/trace-context.js';

/** The JSON error body of every daemon-level HTTP error: `{error:{code,message,traceId}}`. */
export interface ErrorBody {
  readonly error: {
    readonly code: ErrorCode;
    readonly message: string;
    readonly hint?: string;
    readonly traceId: string | undefined;
  };
}

/** `trace` is the request's (request-trace.ts); without one the body names no trace. */
export function errorBody(
  code: ErrorCode,
  message: string,
  hint?: string,
  trace?: TraceContext,
): ErrorBody {
  return {
    error: {
      code,
      message,
      ...(hint === undefined ? {} : { hint }),
      traceId: trace?.traceId,
    },
  };
}

const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  INVALID_INPUT: 400,
  INVALID_SERVER_NAME: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  SERVER_NOT_FOUND: 404,
  SERVER_DISABLED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UPSTREAM_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
};

/** Status and body for anything thrown by a handler; unknown errors give no details. */
export function errorResponseFor(
  error: unknown,
  trace?: TraceContext,
): { status: number; body: ErrorBody } {
  if (isCofferError(error) && error.code !== 'INTERNAL') {
    return {
      status: STATUS_BY_CODE[error.code] ?? 500,
      body: errorBody(error.code, error.message, error.hint, trace),
    };
  }
  return {
    status: 500,
    body: errorBody(
      'INTERNAL',
      'Internal error; see logs/coffer.log for details',
      undefined,
      trace,
    ),
  };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

export function sendError(
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
  hint?: string,
): void {
  sendJson(res, status, errorBody(code, message, hint, requestTrace(res.req)), headers);
}
