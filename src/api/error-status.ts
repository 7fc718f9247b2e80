import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode } from '../domain/errors.js';

/**
 * The one place a CofferError code becomes an HTTP status. A Record over every code,
 * so a new code does not compile until it is given a status here.
 *
 * Choices worth knowing:
 * - *_DISABLED and SERVER_DISABLED are 409 Conflict, not 403: the caller is allowed,
 *   the target is in a state (switched off by the user) that refuses the request.
 *   403 stays reserved for FORBIDDEN (Host/Origin checks), so clients can tell them apart.
 * - AUTH_REQUIRED (an upstream wants credentials) is 502, not 401: a 401 would make a
 *   client believe its own daemon token is wrong.
 * - SECRET_NOT_FOUND is 409: the definition references a keychain entry that is missing.
 * - PROCESS_LIMIT_REACHED is 503, not 429: the limit is on live upstream processes, not
 *   on the caller's rate; it clears when sessions close.
 */
export const errorStatus: Readonly<Record<ErrorCode, ContentfulStatusCode>> = {
  INTERNAL: 500,
  INVALID_INPUT: 400,
  INVALID_SERVER_NAME: 400,
  SERVER_EXISTS: 409,
  DAEMON_ALREADY_RUNNING: 409,
  SERVER_NOT_FOUND: 404,
  SERVER_DISABLED: 409,
  CAPABILITY_NOT_FOUND: 404,
  TASK_NOT_FOUND: 404,
  TOOL_DISABLED: 409,
  TOOL_DENIED: 409,
  SECRET_BLOCKED: 409,
  CREDENTIAL_BLOCKED: 409,
  APPROVAL_REQUIRED: 409,
  CALL_DECLINED: 409,
  TOOL_CHANGED: 409,
  PROMPT_DISABLED: 409,
  RESOURCE_DISABLED: 409,
  UPSTREAM_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_SESSION_EXPIRED: 503,
  PROCESS_LIMIT_REACHED: 503,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  DAEMON_UNAVAILABLE: 503,
  PORT_RANGE_EXHAUSTED: 503,
  STORE_FAILURE: 500,
  AUTH_REQUIRED: 502,
  SECRET_NOT_FOUND: 409,
};

export function statusForCode(code: ErrorCode): ContentfulStatusCode {
  return errorStatus[code];
}
