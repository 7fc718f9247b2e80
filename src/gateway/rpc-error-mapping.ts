import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { CofferError, type ErrorCode as CofferCode } from '../domain/errors.js';
import { UpstreamRpcError } from '../domain/ports.js';

/**
 * The MCP edge's one mapping from Coffer errors to JSON-RPC errors. Upstream JSON-RPC
 * errors pass through unchanged; Coffer's own carry their string code in
 * `data.coffer_code` so clients and tests can tell them apart.
 */
const jsonRpcCode: Partial<Record<CofferCode, number>> = {
  INVALID_INPUT: ErrorCode.InvalidParams,
  CAPABILITY_NOT_FOUND: ErrorCode.InvalidParams,
  // The tasks spec: an unknown (or someone else's) task id is Invalid params.
  TASK_NOT_FOUND: ErrorCode.InvalidParams,
  TOOL_DISABLED: ErrorCode.InvalidParams,
  PROMPT_DISABLED: ErrorCode.InvalidParams,
  RESOURCE_DISABLED: ErrorCode.InvalidParams,
  SERVER_NOT_FOUND: ErrorCode.InvalidParams,
  SERVER_DISABLED: ErrorCode.InvalidParams,
  UPSTREAM_TIMEOUT: ErrorCode.RequestTimeout,
  UPSTREAM_UNAVAILABLE: -32010,
  UPSTREAM_SESSION_EXPIRED: -32010,
  AUTH_REQUIRED: -32011,
  PROCESS_LIMIT_REACHED: -32012,
  TOOL_DENIED: ErrorCode.InvalidParams,
  // Refused because of what the arguments hold, like a denied tool: the same code.
  SECRET_BLOCKED: ErrorCode.InvalidParams,
  CREDENTIAL_BLOCKED: ErrorCode.InvalidParams,
  APPROVAL_REQUIRED: -32013,
  CALL_DECLINED: -32014,
  TOOL_CHANGED: -32015,
};

export interface JsonRpcErrorShape extends Error {
  readonly code: number;
  readonly data?: unknown;
}

export function toJsonRpcError(error: unknown): JsonRpcErrorShape {
  if (error instanceof UpstreamRpcError) return error;
  if (error instanceof CofferError && error.code !== 'INTERNAL') {
    const code = jsonRpcCode[error.code] ?? ErrorCode.InternalError;
    return new UpstreamRpcError(code, error.userMessage, {
      coffer_code: error.code,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      ...error.data,
    });
  }
  return new UpstreamRpcError(ErrorCode.InternalError, 'Internal error', {
    coffer_code: 'INTERNAL',
  });
}
