import { MAX_JSON_DEPTH, decodeJsonText, type JsonTextProblem } from '../domain/json-text.js';
import {
  SHIM_ERROR_CODE,
  invalidInput,
  isJsonObject,
  isJsonRpcId,
  kindOf,
  type JsonRpcId,
  type JsonRpcMessage,
  type RpcErrorBody,
} from './json-rpc.js';

/**
 * One line of the client's stdin, read into the messages to relay and the errors the
 * shim answers itself: not JSON, refused as the daemon refuses a line (not UTF-8, nested
 * too deep, a `__proto__` key: decodeJsonText, so both edges agree), not a JSON-RPC
 * message, or past the daemon's limit (answered here, under the request's own id). A
 * batch from an old client (batches left MCP in 2025-06-18) becomes its messages,
 * relayed one by one.
 *
 * Only a request's id is echoed: any other message's id is one the daemon chose, and the
 * same number may name one of the client's own requests. An answer too large to relay
 * goes on as an error to the daemon instead, so the server that asked is not left waiting.
 */

export type ClientItem =
  | { readonly ok: true; readonly message: JsonRpcMessage; readonly raw: string }
  | { readonly ok: false; readonly id: JsonRpcId | null; readonly error: RpcErrorBody };

/** The daemon's limit for one line (as /mcp's for one body). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export function readClientLine(line: Uint8Array): ClientItem[] {
  const decoded = decodeJsonText(line, 'The message');
  if (!decoded.ok) return [undecodable(decoded.problem, decoded.message)];
  const parsed = decoded.value;
  if (line.byteLength > MAX_MESSAGE_BYTES) {
    const message = `Message too large: ${line.byteLength} bytes, the limit is ${MAX_MESSAGE_BYTES}`;
    return [tooLarge(parsed, message)];
  }
  if (!Array.isArray(parsed)) return [item(parsed, decoded.text)];
  if (parsed.length === 0) return [invalid(null)];
  // Safe to serialise again: decodeJsonText bounded the depth.
  return (parsed as unknown[]).map((each) => item(each, JSON.stringify(each)));
}

const DECODE_HINTS: Record<JsonTextProblem, string> = {
  syntax: 'write one JSON-RPC message per line',
  encoding: 'send messages as UTF-8',
  depth: `nest a message at most ${MAX_JSON_DEPTH} levels deep`,
  'proto-key': 'rename the "__proto__" key',
};

/** As the daemon's socket channel answers: a line it cannot read has no id to echo. */
function undecodable(problem: JsonTextProblem, message: string): ClientItem {
  const parse = problem === 'syntax' || problem === 'encoding';
  const [code, label] = parse
    ? [SHIM_ERROR_CODE.parseError, 'Parse error']
    : [SHIM_ERROR_CODE.invalidRequest, 'Invalid Request'];
  return {
    ok: false,
    id: null,
    error: invalidInput(code, `${label}: ${message}`, DECODE_HINTS[problem]),
  };
}

function item(message: unknown, raw: string): ClientItem {
  if (!isJsonObject(message) || kindOf(message) === 'invalid') return invalid(idOf(message));
  return { ok: true, message, raw };
}

function idOf(value: unknown): JsonRpcId | null {
  return isJsonObject(value) && 'method' in value && isJsonRpcId(value['id']) ? value['id'] : null;
}

function tooLarge(value: unknown, message: string): ClientItem {
  const id = isJsonObject(value) ? value['id'] : undefined;
  const answer = isJsonObject(value) && !('method' in value) && isJsonRpcId(id);
  if (!answer) return refused(idOf(value), SHIM_ERROR_CODE.invalidRequest, message);
  const error: JsonRpcMessage = {
    jsonrpc: '2.0',
    id,
    error: { code: SHIM_ERROR_CODE.invalidRequest, message: `The client's answer: ${message}` },
  };
  return { ok: true, message: error, raw: JSON.stringify(error) };
}

function invalid(id: JsonRpcId | null): ClientItem {
  return refused(id, SHIM_ERROR_CODE.invalidRequest, 'Invalid Request');
}

function refused(id: JsonRpcId | null, code: number, message: string): ClientItem {
  return { ok: false, id, error: { code, message } };
}
