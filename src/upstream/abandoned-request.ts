import { CofferError } from '../domain/errors.js';
import { UpstreamRpcError } from '../domain/ports.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * What an abandoned request rejects with. A cancel is no fault of the connection: it is
 * a JSON-RPC error (as the SDK's client gave), so the connection is kept for the session's
 * next request; the client that cancelled is not sent it.
 */
export function abandonedError(reason: unknown, text: string): Error {
  if (reason instanceof CofferError || reason instanceof UpstreamRpcError) return reason;
  return new UpstreamRpcError(ErrorCode.RequestTimeout, text);
}

export function reasonText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
