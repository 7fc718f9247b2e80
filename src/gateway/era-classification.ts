import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { RPC } from '../domain/mcp-envelope.js';
import { paramHeaderMismatch, scanHeaderDeclarations } from '../domain/param-header-rules.js';
import type { JsonObject } from '../domain/ports.js';
import {
  ALL_PROTOCOL_VERSIONS,
  hasEnvelopeClaim,
  isModernVersion,
  isObject,
  MODERN_PROTOCOL_VERSIONS,
  readEnvelope,
} from './protocol-eras.js';
import { headerMismatch, type StandardHeaders } from './standard-headers.js';

/** A message Coffer refuses before any handler sees it, with the HTTP status to send. */
export interface EraRejection {
  readonly era: 'rejected';
  readonly status: number;
  readonly error: { readonly code: number; readonly message: string; readonly data?: JsonObject };
}

export type EraVerdict =
  | { readonly era: 'legacy' }
  | { readonly era: 'modern'; readonly message: JSONRPCMessage }
  | EraRejection;

const LEGACY = { era: 'legacy' } as const;

/**
 * Which era one incoming message belongs to, from its body first (as the SDK v2 server
 * classifies): a request or notification whose `_meta` names a protocol version is
 * 2026-07-28, anything else (initialize, batches, answers, session traffic) is 2025.
 * `headers` is absent on the socket channel, which has no HTTP headers to check.
 */
export function classifyMessage(body: unknown, headers?: StandardHeaders): EraVerdict {
  if (Array.isArray(body))
    return body.some((item) => isObject(item) && hasEnvelopeClaim(item['params']))
      ? reject(-32600, 'Bad Request: JSON-RPC batches may not contain 2026-07-28 requests')
      : LEGACY;
  if (!isObject(body) || typeof body['method'] !== 'string') return LEGACY;
  const method = body['method'];
  const params = body['params'];
  const modernHeader =
    headers?.protocolVersion !== undefined && isModernVersion(headers.protocolVersion);
  if (!hasEnvelopeClaim(params)) {
    if (!modernHeader) return LEGACY;
    if (method === 'initialize')
      return reject(
        RPC.headerMismatch,
        'Bad Request: initialize (the 2025 handshake) was sent with a 2026-07-28 MCP-Protocol-Version header',
      );
    if (!('id' in body)) return { era: 'modern', message: body as JSONRPCMessage };
    return reject(
      -32602,
      `Invalid params: the MCP-Protocol-Version header names ${headers.protocolVersion} but the request has no _meta envelope (${'io.modelcontextprotocol/protocolVersion'}, ${'io.modelcontextprotocol/clientCapabilities'})`,
    );
  }
  return classifyClaim(body, method, params, headers);
}

function classifyClaim(
  body: JsonObject,
  method: string,
  params: unknown,
  headers: StandardHeaders | undefined,
): EraVerdict {
  const isRequest = 'id' in body;
  const envelope = readEnvelope(params);
  if (typeof envelope === 'string') {
    if (isRequest)
      return reject(-32602, `Invalid _meta envelope for protocol revision 2026-07-28: ${envelope}`);
    return { era: 'modern', message: body as JSONRPCMessage };
  }
  const { protocolVersion } = envelope;
  // Headers that disagree with the body are -32020 before the version is judged: a
  // request whose header names 2026-07-28 and whose body names another is a mismatch.
  const claimed = headers?.protocolVersion;
  if (isRequest && claimed !== undefined && claimed !== protocolVersion)
    return reject(
      RPC.headerMismatch,
      `Bad Request: the request headers and body disagree: the body envelope names protocol version ${protocolVersion} but the MCP-Protocol-Version header names ${claimed}`,
    );
  if (!MODERN_PROTOCOL_VERSIONS.includes(protocolVersion)) return unsupported(protocolVersion);
  if (headers !== undefined && isRequest) {
    const mismatch = headerMismatch(headers, method, protocolVersion, params);
    if (mismatch !== undefined)
      return reject(
        RPC.headerMismatch,
        `Bad Request: the request headers and body disagree: ${mismatch}`,
      );
  }
  return { era: 'modern', message: body as JSONRPCMessage };
}

/**
 * A 2026-07-28 tools/call whose `Mcp-Param-*` headers disagree with its arguments, checked
 * against the `x-mcp-header` declarations of the called tool's `inputSchema` (as the SDK
 * v2 server checks): 400 with -32020 naming the header and what to send, or undefined.
 * Declarations that break the rules are not checked, except `number` ones (the SDK's too).
 */
export function paramHeaderRejection(
  params: unknown,
  inputSchema: unknown,
  headerOf: (name: string) => string | undefined,
): EraRejection | undefined {
  const scan = scanHeaderDeclarations(inputSchema);
  if (scan.declarations === undefined || scan.declarations.length === 0) return undefined;
  const args = isObject(params) ? params['arguments'] : undefined;
  const mismatch = paramHeaderMismatch(scan.declarations, args, headerOf);
  if (mismatch === undefined) return undefined;
  return reject(
    RPC.headerMismatch,
    `Bad Request: the request headers and body disagree: ${mismatch.body}`,
    { mismatch: { header: mismatch.header, body: mismatch.body } },
  );
}

/** -32022 with what Coffer speaks, so the client can pick again. */
export function unsupported(requested: string | undefined): EraRejection {
  return reject(
    RPC.unsupportedVersion,
    requested === undefined
      ? 'Unsupported protocol version: the request names none; send the _meta envelope or initialize first'
      : `Unsupported protocol version ${requested}: Coffer speaks ${ALL_PROTOCOL_VERSIONS.join(', ')}`,
    { supported: [...ALL_PROTOCOL_VERSIONS], ...(requested === undefined ? {} : { requested }) },
  );
}

function reject(code: number, message: string, data?: JsonObject): EraRejection {
  return {
    era: 'rejected',
    status: 400,
    error: data === undefined ? { code, message } : { code, message, data },
  };
}
