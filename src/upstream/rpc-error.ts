import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { CofferError } from '../domain/errors.js';
import { UpstreamRpcError } from '../domain/ports.js';

/**
 * The SDK prefixes McpError messages with "MCP error <code>: ". Relaying them as-is
 * would nest the prefix at every hop, so strip it and keep code, message and data.
 */
export function fromSdkError(error: unknown, server: string, closed: boolean): Error {
  if (error instanceof CofferError || error instanceof UpstreamRpcError) return error;
  if (closed || isConnectionClosed(error)) {
    return new CofferError('UPSTREAM_UNAVAILABLE', `Upstream "${server}" closed the connection`, {
      hint: `see logs/upstream-${server}.log, or run \`coffer mcp test ${server}\``,
      data: { server },
      cause: error,
    });
  }
  if (error instanceof McpError) {
    const prefix = `MCP error ${error.code}: `;
    const message = error.message.startsWith(prefix)
      ? error.message.slice(prefix.length)
      : error.message;
    return new UpstreamRpcError(error.code, message, error.data);
  }
  return new CofferError(
    'UPSTREAM_UNAVAILABLE',
    `Upstream "${server}" failed: ${describe(error)}`,
    {
      hint: `run \`coffer mcp test ${server}\` to see why`,
      data: { server },
      cause: error,
    },
  );
}

function isConnectionClosed(error: unknown): boolean {
  return error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number);
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return 'unknown error';
}
