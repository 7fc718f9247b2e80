/**
 * What the 2026-07-28 Streamable HTTP transport asks of a client beyond 2025's, added
 * under the SDK v1 client transport as its `fetch` (the transport, its OAuth, session
 * and error handling stay the SDK's):
 *
 * - a POSTed request whose `_meta` envelope names a protocol version carries the
 *   headers the server checks against the body (-32020 when they disagree):
 *   `MCP-Protocol-Version`, `Mcp-Method`, and `Mcp-Name` for the methods that name a
 *   target (`tools/call`, `prompts/get`: the name; `resources/read`: the uri; `tasks/*`:
 *   the task id), a value that is no plain header text sent as `=?base64?…?=`;
 * - an HTTP 400 whose body is a JSON-RPC error answering the request just posted (the
 *   -32022 a 2026-07-28-only server gives a 2025 `initialize`, a -32020) is handed to the
 *   transport as that request's answer: the SDK v1 transport would throw it away as an
 *   HTTP failure, and era negotiation needs to read it;
 * - a `notifications/cancelled` for a 2026-07-28 request still open closes that
 *   request's POST instead of being posted (src/upstream/stream-cancellation.ts);
 * - a `tools/call` carries the `Mcp-Param-*` headers its tool declares, learnt from the
 *   tools/list answers read on the way back (src/upstream/param-headers.ts).
 *
 * Under it, `base` sends the requests: by default on node:http, Node's fetch for the rest
 * (src/upstream/node-http-fetch.ts). One per transport: the open requests it can cancel
 * are that connection's.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { mcpNameField, META } from '../domain/mcp-envelope.js';
import { encodeHeaderValue } from '../domain/param-header-rules.js';
import {
  asJsonRpcMessage,
  isNotification,
  isObject,
  isRequest,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from './jsonrpc-envelope.js';
import { ParamHeaderTable } from './param-headers.js';
import { nodeHttpFetch } from './node-http-fetch.js';
import { StreamCancellation } from './stream-cancellation.js';

export function modernHttpFetch(base: FetchLike = nodeHttpFetch()): FetchLike {
  const cancellation = new StreamCancellation();
  const params = new ParamHeaderTable();
  // A call waits for the lists read before it, so it never goes out with an old table.
  let learning: Promise<void> = Promise.resolve();
  return async (url, init) => {
    const posted = postedMessage(init);
    if (posted !== undefined && isNotification(posted)) {
      const cancelled = posted.method === 'notifications/cancelled';
      if (cancelled && cancellation.cancel(posted.params?.['requestId']))
        return new Response(null, { status: 202 });
    }
    if (posted === undefined || !isRequest(posted)) return base(url, init);
    const headers = modernHeaders(posted);
    if (Object.keys(headers).length === 0) return inBand(await base(url, init), posted);
    if (posted.method === 'tools/call') {
      await learning;
      Object.assign(
        headers,
        params.headersFor(String(posted.params?.['name']), posted.params?.['arguments']),
      );
    }
    const signal = cancellation.track(posted.id, init?.signal);
    try {
      const response = await base(url, { ...init, headers: merged(init, headers), signal });
      if (posted.method === 'tools/list' && response.ok) {
        const read = readResult(response.clone(), posted).then((result) => params.learn(result));
        learning = learning.then(() => read).catch(() => undefined);
      }
      return cancellation.settle(posted.id, await inBand(response, posted));
    } catch (error) {
      cancellation.forget(posted.id);
      throw error;
    }
  };
}

/** The headers a 2026-07-28 request carries; none for a message without an envelope claim. */
export function modernHeaders(request: JsonRpcRequest): Record<string, string> {
  const meta = request.params?.['_meta'];
  const version = isObject(meta) ? meta[META.protocolVersion] : undefined;
  if (typeof version !== 'string') return {};
  const headers: Record<string, string> = {
    'mcp-protocol-version': version,
    'mcp-method': request.method,
  };
  const field = mcpNameField(request.method);
  const name = field === undefined ? undefined : request.params?.[field];
  if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  return headers;
}

/** The JSON-RPC message a POST carries (a batch is left alone). */
function postedMessage(init: RequestInit | undefined): JsonRpcMessage | undefined {
  if (init?.method !== 'POST' || typeof init.body !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(init.body);
  } catch {
    return undefined;
  }
  return asJsonRpcMessage(value);
}

function merged(init: RequestInit | undefined, added: Record<string, string>): Headers {
  const headers = new Headers(init?.headers);
  for (const [name, value] of Object.entries(added)) headers.set(name, value);
  return headers;
}

/** A 400 as a 200 JSON answer when its body answers the posted request, else unchanged. */
async function inBand(response: Response, request: JsonRpcRequest): Promise<Response> {
  if (response.status !== 400) return response;
  const text = await response.text();
  if (answers(text, request)) {
    return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
  }
  const { status, statusText, headers } = response;
  return new Response(text, { status, statusText, headers });
}

function answers(text: string, request: JsonRpcRequest): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  const message = asJsonRpcMessage(value);
  return message !== undefined && 'error' in message && message.id === request.id;
}

/** The result a response (JSON, or an SSE stream ending with it) gives `request`. */
async function readResult(response: Response, request: JsonRpcRequest): Promise<unknown> {
  const text = await response.text();
  const bodies = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5))
    : [text];
  for (const body of bodies) {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      continue;
    }
    if (isObject(value) && value['id'] === request.id && 'result' in value) return value['result'];
  }
  return undefined;
}
