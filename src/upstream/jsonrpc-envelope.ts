/**
 * The JSON-RPC 2.0 envelope of an MCP message, checked by hand: `jsonrpc`, an id that is
 * a string or a number, a method name, params / result objects, an error's code and
 * message. Nothing inside params or a result is looked at: Coffer relays them verbatim,
 * so a full schema parse of every message (the SDK's zod schemas) is cost without use.
 */
import type { JsonObject } from '../domain/ports.js';

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: JsonObject;
}

export interface JsonRpcNotification {
  readonly jsonrpc: '2.0';
  readonly method: string;
  readonly params?: JsonObject;
}

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface JsonRpcResponse {
  readonly jsonrpc: '2.0';
  /** Null (or absent) only on an error about a message whose id could not be read. */
  readonly id?: JsonRpcId | null;
  readonly result?: JsonObject;
  readonly error?: JsonRpcErrorObject;
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** One stdio line as a message; throws when it is not JSON or not a JSON-RPC envelope. */
export function parseJsonRpcLine(line: string): JsonRpcMessage {
  const value: unknown = JSON.parse(line);
  const message = asJsonRpcMessage(value);
  if (message === undefined) throw new Error('not a JSON-RPC 2.0 message');
  return message;
}

/** The value itself when its envelope is well formed, else undefined. */
export function asJsonRpcMessage(value: unknown): JsonRpcMessage | undefined {
  if (!isObject(value) || value['jsonrpc'] !== '2.0') return undefined;
  if ('params' in value && !isObject(value['params'])) return undefined;
  const id = value['id'];
  const hasId = id !== undefined && id !== null;
  if (hasId && !isId(id)) return undefined;
  if ('method' in value) {
    return typeof value['method'] === 'string' && (hasId || !('id' in value))
      ? (value as never)
      : undefined;
  }
  if ('result' in value) return hasId && isObject(value['result']) ? (value as never) : undefined;
  // An error about a message whose id could not be read carries `id: null`.
  return isErrorObject(value['error']) ? (value as never) : undefined;
}

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return 'method' in message && 'id' in message;
}

export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return 'method' in message && !('id' in message);
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function isErrorObject(value: unknown): value is JsonRpcErrorObject {
  return isObject(value) && Number.isInteger(value['code']) && typeof value['message'] === 'string';
}
