/**
 * Which era an upstream speaks, found the way the SDK v2 client's `versionNegotiation:
 * 'auto'` finds it: `server/discover` with the modern envelope first; a discover result
 * naming 2026-07-28 means modern, and so does a -32022 naming it (the server refused the
 * version it was asked: Coffer asks once more, as the spec's negotiation says). Anything
 * else (method not found, a -32022 without a modern version, a 2025 Streamable HTTP
 * server's HTTP 400 "not initialized", an HTTP 404 or 405) means legacy, and the 2025
 * `initialize` follows on the same connection (2026-07-28 versioning, "Backward
 * Compatibility"). A server remembered as legacy is asked `initialize` first (byte for
 * byte what Coffer sent before eras), and turns modern only when it answers -32022
 * naming 2026-07-28 (or answers initialize naming 2026-07-28).
 */
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MODERN_PROTOCOL_VERSION, RPC } from '../domain/mcp-envelope.js';
import { UpstreamRpcError, type JsonObject } from '../domain/ports.js';
import {
  initializeUpstream,
  instructionsOf,
  ModernInitializeAnswer,
  type HandshakeChannel,
  type HandshakeOptions,
} from './initialize-handshake.js';
import { isObject } from './jsonrpc-envelope.js';
import { withEnvelope, type ProtocolEra } from './protocol-era.js';

/** Which handshake to try first. */
export type NegotiationOrder = 'legacy-first' | 'modern-first';

export interface NegotiatedEra {
  readonly era: ProtocolEra;
  readonly protocolVersion: string;
  readonly serverCapabilities: JsonObject;
  readonly instructions: string | undefined;
}

/**
 * The connection closed while it was probed with `server/discover`: some 2025 stdio
 * servers exit on any request before `initialize`. The caller starts a fresh one and
 * negotiates legacy-first.
 */
export class EraProbeClosed extends Error {
  override readonly name = 'EraProbeClosed';
  constructor() {
    super('The upstream closed the connection when probed with server/discover');
  }
}

export async function negotiateEra(
  channel: HandshakeChannel,
  options: HandshakeOptions,
  order: NegotiationOrder,
): Promise<NegotiatedEra> {
  if (order === 'modern-first') {
    const modern = await discover(channel, options);
    if (modern !== undefined) return modern;
    return legacy(channel, options);
  }
  try {
    return await legacy(channel, options);
  } catch (error) {
    if (!offersModern(error)) throw error;
    const modern = await discover(channel, options);
    if (modern === undefined) throw error;
    return modern;
  }
}

async function legacy(
  channel: HandshakeChannel,
  options: HandshakeOptions,
): Promise<NegotiatedEra> {
  const hello = await initializeUpstream(channel, options);
  const { protocolVersion, capabilities, instructions } = hello;
  return { era: 'legacy', protocolVersion, serverCapabilities: capabilities, instructions };
}

/** The modern verdict, or undefined when the server gave no modern evidence. */
async function discover(
  channel: HandshakeChannel,
  options: HandshakeOptions,
  corrected = false,
): Promise<NegotiatedEra | undefined> {
  let result: JsonObject;
  try {
    result = await channel.exchange('server/discover', withEnvelope(undefined, options));
  } catch (error) {
    if (isClosed(error)) throw new EraProbeClosed();
    // Refused, naming 2026-07-28 among the versions it supports: a modern server.
    if (!corrected && offersModern(error)) return discover(channel, options, true);
    if (error instanceof UpstreamRpcError || isLegacyHttpAnswer(error)) return undefined;
    throw error;
  }
  const versions = result['supportedVersions'];
  const capabilities = result['capabilities'];
  if (!Array.isArray(versions) || !versions.includes(MODERN_PROTOCOL_VERSION)) return undefined;
  if (!isObject(capabilities)) return undefined;
  // HTTP transports send the version in a header on every later request.
  channel.transport.setProtocolVersion?.(MODERN_PROTOCOL_VERSION);
  return {
    era: 'modern',
    protocolVersion: MODERN_PROTOCOL_VERSION,
    serverCapabilities: capabilities,
    instructions: instructionsOf(result),
  };
}

/**
 * A -32022 answer to initialize that names the modern revision among the supported ones,
 * or an initialize result that names it.
 */
function offersModern(error: unknown): boolean {
  if (error instanceof ModernInitializeAnswer) return true;
  if (!(error instanceof UpstreamRpcError) || error.code !== RPC.unsupportedVersion) return false;
  const data = error.data;
  const supported = isObject(data) ? data['supported'] : undefined;
  return Array.isArray(supported) && supported.includes(MODERN_PROTOCOL_VERSION);
}

/**
 * An HTTP error status answering the probe, without a JSON-RPC answer to it (those reach
 * here as UpstreamRpcError, src/upstream/modern-http-fetch.ts): what a 2025 server says
 * to a request before `initialize`. Not 401/403: a sign-in or a denial is no era evidence
 * (the SDK's OAuth handles a 401 before this; without it, the error stands).
 */
function isLegacyHttpAnswer(error: unknown): boolean {
  if (!(error instanceof StreamableHTTPError)) return false;
  return error.code !== 401 && error.code !== 403;
}

function isClosed(error: unknown): boolean {
  return error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number);
}
