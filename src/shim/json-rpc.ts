/**
 * Just enough JSON-RPC for a relay: tell requests, notifications and responses apart and
 * build the error responses the shim itself must produce. Messages are kept as parsed
 * JSON objects and never re-typed, so no field an agent or a server sent is lost.
 */

export type JsonRpcId = string | number;
export type JsonRpcMessage = Record<string, unknown>;

export type MessageKind = 'request' | 'notification' | 'response' | 'invalid';

/** `data.coffer_code` marks errors made by Coffer itself, as the gateway does. */
export const SHIM_ERROR_CODE = {
  parseError: -32700,
  invalidRequest: -32600,
  /** The gateway maps DAEMON_UNAVAILABLE (unmapped code) to InternalError too. */
  daemonUnavailable: -32603,
} as const;

export function isJsonObject(value: unknown): value is JsonRpcMessage {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

export function kindOf(message: JsonRpcMessage): MessageKind {
  const hasMethod = typeof message['method'] === 'string';
  const hasId = isJsonRpcId(message['id']);
  if (hasMethod) return hasId ? 'request' : 'notification';
  if (hasId && ('result' in message || 'error' in message)) return 'response';
  // A response to a request the peer could not parse carries `id: null`.
  if (message['id'] === null && 'error' in message) return 'response';
  return 'invalid';
}

/** A map key for an id: 1 and "1" are different ids. */
export function idKey(id: JsonRpcId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

export function requestId(message: JsonRpcMessage): JsonRpcId | undefined {
  const id = message['id'];
  return typeof message['method'] === 'string' && isJsonRpcId(id) ? id : undefined;
}

export interface RpcErrorBody {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export function errorResponse(id: JsonRpcId | null, error: RpcErrorBody): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}

/** A line the shim refuses for what the client wrote: `hint` says what to write instead. */
export function invalidInput(code: number, message: string, hint: string): RpcErrorBody {
  return { code, message, data: { coffer_code: 'INVALID_INPUT', hint } };
}

/** The error a client gets when the daemon could not answer one of its requests. */
export function daemonError(
  message: string,
  hint?: string,
  cofferCode = 'DAEMON_UNAVAILABLE',
): RpcErrorBody {
  return {
    code: SHIM_ERROR_CODE.daemonUnavailable,
    message,
    data: { coffer_code: cofferCode, ...(hint === undefined ? {} : { hint }) },
  };
}
