import { mcpNameField } from '../../src/domain/mcp-envelope.js';
import type { RunningDaemon } from './running-daemon.js';

/** Where a daemon listens and its token: a RunningDaemon, or what daemon.json says. */
export type DaemonAddress = Pick<RunningDaemon, 'baseUrl' | 'token'>;

/**
 * The `_meta` envelope a 2026-07-28 client puts in each request: its version, what it
 * declares (`extensions`, by id) and who it is.
 */
export function modernEnvelope(client: string, extensions: Record<string, object> = {}) {
  const declared = Object.keys(extensions).length === 0 ? {} : { extensions };
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': declared,
    'io.modelcontextprotocol/clientInfo': { name: client, version: '1' },
  };
}

/** A JSON-RPC request as a 2026-07-28 client posts it (its `_meta` envelope already in params). */
export interface ModernMessage {
  readonly jsonrpc: '2.0';
  readonly id: number | string;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/**
 * POSTs one 2026-07-28 request to the daemon with the standard headers a v2 client sends
 * (MCP-Protocol-Version, Mcp-Method, Mcp-Name from the field it mirrors) and `extra` ones
 * on top, and returns the HTTP status and the JSON-RPC answer, read from a JSON body or
 * from the first SSE event.
 */
export async function postModernRaw(
  daemon: DaemonAddress,
  message: ModernMessage,
  path = '/mcp',
  extra: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const field = mcpNameField(message.method);
  const named = field === undefined ? undefined : message.params?.[field];
  const response = await fetch(`${daemon.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${daemon.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': message.method,
      ...(typeof named === 'string' ? { 'mcp-name': named } : {}),
      ...extra,
    },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  const json = text.includes('data: ') ? /data: (.*)/.exec(text)![1]! : text;
  return { status: response.status, body: JSON.parse(json) as Record<string, unknown> };
}

/** postModernRaw's answer alone. */
export async function postModern(
  daemon: DaemonAddress,
  message: ModernMessage,
  path = '/mcp',
): Promise<unknown> {
  return (await postModernRaw(daemon, message, path)).body;
}
