import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { RPC } from '../domain/mcp-envelope.js';
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
