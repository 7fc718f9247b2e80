import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The JSON-RPC envelope check of a downstream POST, done by hand rather than with the
 * SDK's zod `JSONRPCMessageSchema`: it runs on every call, and zod's union parse (which
 * also clones the message) was a visible share of the daemon's CPU per call. It accepts
 * exactly what that schema accepts at the envelope level (strict keys, integer or string
 * ids); the params and results themselves are relayed verbatim and checked upstream.
 */

type Shape = 'request' | 'notification' | 'response';

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const NOTIFICATION_KEYS = new Set(['jsonrpc', 'method', 'params']);
const RESULT_KEYS = new Set(['jsonrpc', 'id', 'result']);
const ERROR_KEYS = new Set(['jsonrpc', 'id', 'error']);

/**
 * Ids are strings or integers that survive a round trip through a double (JSON-RPC 2.0
 * wants no fractions; past 2^53 two ids would collide, and -1e308 is "an integer" to
 * JavaScript but to nothing else): anything else is an Invalid Request, answered with id
 * null since the id cannot be echoed faithfully.
 */
export const INVALID_ID_PROBLEM = `an id must be a string or an integer between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`;

/** Why `value` is no JSON-RPC 2.0 message (for an Invalid Request answer), or undefined. */
export function messageProblem(value: unknown): string | undefined {
  if (jsonRpcShape(value) !== undefined) return undefined;
  if (isObject(value) && 'id' in value && !isRequestId(value['id'])) return INVALID_ID_PROBLEM;
  return 'not a JSON-RPC 2.0 message (jsonrpc "2.0", a method or a result or an error, no other keys)';
}

/**
 * The id to answer an Invalid Request with: the request's own when it has a method and a
 * valid id, so a client waiting on that id is answered (a line-based channel has no HTTP
 * status to end the wait); null for anything else, a malformed response above all, whose
 * id names one of the CLIENT's requests.
 */
export function requestIdOf(value: unknown): RequestId | null {
  return isObject(value) && 'method' in value && isRequestId(value['id']) ? value['id'] : null;
}

/** What `value` is as a JSON-RPC 2.0 message, or undefined when it is none. */
function jsonRpcShape(value: unknown): Shape | undefined {
  if (!isObject(value) || value['jsonrpc'] !== '2.0') return undefined;
  if ('method' in value) {
    if (typeof value['method'] !== 'string') return undefined;
    if (value['params'] !== undefined && !isObject(value['params'])) return undefined;
    if ('id' in value)
      return isRequestId(value['id']) && onlyKeys(value, REQUEST_KEYS) ? 'request' : undefined;
    return onlyKeys(value, NOTIFICATION_KEYS) ? 'notification' : undefined;
  }
  if ('result' in value)
    return isRequestId(value['id']) && isObject(value['result']) && onlyKeys(value, RESULT_KEYS)
      ? 'response'
      : undefined;
  const error = value['error'];
  if (!isObject(error) || !Number.isInteger(error['code']) || typeof error['message'] !== 'string')
    return undefined;
  return (value['id'] === undefined || isRequestId(value['id'])) && onlyKeys(value, ERROR_KEYS)
    ? 'response'
    : undefined;
}

export function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & {
  id: RequestId;
  method: string;
} {
  return 'method' in message && 'id' in message;
}

export function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !('method' in message) && ('result' in message || 'error' in message);
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}
