import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { messageProblem, requestIdOf } from './json-rpc-shape.js';

/** Why a POST without a session that means to initialize cannot, as its JSON-RPC error. */
export interface InitializeProblem {
  readonly code: number;
  readonly message: string;
  readonly id: RequestId | null;
}

/**
 * Read only once a POST without a session is not a valid initialize: one that is an
 * initialize, only a broken one, is told what is wrong with it rather than to "send
 * initialize first", which it just did. Undefined when the POST is no initialize at all.
 */
export function initializeProblem(body: unknown): InitializeProblem | undefined {
  if (Array.isArray(body))
    return body.some(isInitialize)
      ? invalid('Invalid Request: initialize must be sent alone, not in a JSON-RPC batch')
      : undefined;
  if (!isInitialize(body)) return undefined;
  const envelope = messageProblem(body);
  if (envelope !== undefined) return invalid(`Invalid Request: ${envelope}`);
  if (!('id' in body)) return invalid('Invalid Request: initialize is a request and needs an id');
  // The SDK's schema may refuse what these checks let through: it is still an initialize.
  const problem = paramsProblem(body['params']) ?? 'has params the MCP schema does not accept';
  return { code: -32602, message: `Invalid params: initialize ${problem}`, id: requestIdOf(body) };
}

function paramsProblem(params: unknown): string | undefined {
  if (!isObject(params))
    return 'needs params {protocolVersion, capabilities, clientInfo: {name, version}}';
  if (typeof params['protocolVersion'] !== 'string')
    return 'needs params.protocolVersion, a string such as "2025-11-25"';
  if (!isObject(params['capabilities'])) return 'needs params.capabilities, an object';
  const info = params['clientInfo'];
  if (!isObject(info) || typeof info['name'] !== 'string' || typeof info['version'] !== 'string')
    return 'needs params.clientInfo, an object with a string name and version';
  return undefined;
}

function invalid(message: string): InitializeProblem {
  return { code: -32600, message, id: null };
}

function isInitialize(value: unknown): value is Record<string, unknown> {
  return isObject(value) && value['method'] === 'initialize';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
