/**
 * The wire names of MCP 2026-07-28 that both sides of Coffer use: the reserved `_meta`
 * keys of the per-request envelope and of results, the JSON-RPC codes the revision adds,
 * and how the Streamable HTTP transport mirrors a request's target in `Mcp-Name` (a
 * header value that is not plain text travels as `=?base64?<utf-8 bytes>?=`). Agents
 * (src/gateway) and upstreams (src/upstream) speak the same revision: one place for it.
 */

import { UpstreamRpcError, type JsonObject } from './ports.js';

/** The modern revision Coffer speaks, downstream and upstream. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The reserved `_meta` keys of the 2026-07-28 envelope and results. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** JSON-RPC codes the 2026-07-28 revision adds. */
export const RPC = {
  headerMismatch: -32020,
  missingClientCapability: -32021,
  unsupportedVersion: -32022,
} as const;

/**
 * The spec's -32021: the request needs what its client did not declare. `required` is a
 * ClientCapabilities object naming it (e.g. `{ sampling: {} }`), so the client can
 * declare it and retry; `message` says so in words.
 */
export function missingClientCapability(required: JsonObject, message: string): UpstreamRpcError {
  return new UpstreamRpcError(RPC.missingClientCapability, message, {
    requiredCapabilities: required,
  });
}

/** The params field `Mcp-Name` mirrors, per method (the transport's "Required For" column). */
export const MCP_NAME_FIELD: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** The params field `method`'s `Mcp-Name` header mirrors, if it has one. */
export function mcpNameField(method: string): string | undefined {
  return Object.hasOwn(MCP_NAME_FIELD, method) ? MCP_NAME_FIELD[method] : undefined;
}
