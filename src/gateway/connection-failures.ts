import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { CofferError } from '../domain/errors.js';
import { UpstreamRpcError } from '../domain/ports.js';

/**
 * What a failed upstream request says about the connection it was sent on (ADR-004
 * update). One place, so the session path and the admin path judge failures alike.
 */

/** The upstream does not offer this: a legitimate answer, not a broken connection. */
export function isMethodNotFound(error: unknown): boolean {
  return error instanceof UpstreamRpcError && error.code === (ErrorCode.MethodNotFound as number);
}

/**
 * Failures a fresh connection would not cure: a slow upstream stays slow (and the
 * caller is waiting), and a full process limit stays full.
 */
export function isHopeless(error: unknown): boolean {
  return (
    error instanceof CofferError &&
    (error.code === 'UPSTREAM_TIMEOUT' || error.code === 'PROCESS_LIMIT_REACHED')
  );
}

/**
 * The upstream refused the message unread (an HTTP 404 for a session it forgot): the
 * request was not processed, so sending it again on a fresh session replays nothing.
 */
export function wasNotDelivered(error: unknown): boolean {
  return error instanceof CofferError && error.code === 'UPSTREAM_SESSION_EXPIRED';
}

/**
 * The connection itself failed (closed, unreachable, stale session): it must be dropped
 * so the next request makes a fresh one. A JSON-RPC error answer or a timeout proves the
 * connection still carries messages, so it is kept.
 */
export function breaksConnection(error: unknown): boolean {
  return (
    error instanceof CofferError &&
    (error.code === 'UPSTREAM_UNAVAILABLE' || error.code === 'UPSTREAM_SESSION_EXPIRED')
  );
}
