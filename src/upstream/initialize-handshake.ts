/**
 * The MCP initialize handshake, done by Coffer as a client: the SDK's latest protocol
 * version, Coffer's clientInfo and ONLY the downstream client's declared capabilities
 * (so an upstream asks for sampling, elicitation or roots only when someone can answer);
 * the server's version must be one the SDK supports; then `notifications/initialized`.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { MODERN_PROTOCOL_VERSION } from '../domain/mcp-envelope.js';
import type { JsonObject } from '../domain/ports.js';
import { isObject } from './jsonrpc-envelope.js';

/**
 * initialize answered with 2026-07-28, a revision that has no such handshake (as the
 * conformance suite's 2026-07-28 mock servers answer it): evidence that the server speaks
 * it, so era negotiation asks server/discover next (src/upstream/era-negotiation.ts).
 */
export class ModernInitializeAnswer extends Error {
  override readonly name = 'ModernInitializeAnswer';
  constructor() {
    super(`Server's protocol version is not supported: ${MODERN_PROTOCOL_VERSION}`);
  }
}

export interface HandshakeOptions {
  readonly clientCapabilities: JsonObject;
  readonly clientInfo: { readonly name: string; readonly version: string };
}

export interface HandshakeChannel {
  readonly transport: Transport;
  /** Sends one request and resolves its result. */
  exchange(method: string, params: JsonObject): Promise<JsonObject>;
  notify(method: string): Promise<void>;
}

/** What an upstream said of itself at the handshake. */
export interface UpstreamHello {
  readonly protocolVersion: string;
  readonly capabilities: JsonObject;
  /** How to use the server, for the model's prompt; undefined when it gave none. */
  readonly instructions: string | undefined;
}

/** Resolves the protocol version agreed, the capabilities declared, the instructions. */
export async function initializeUpstream(
  channel: HandshakeChannel,
  options: HandshakeOptions,
): Promise<UpstreamHello> {
  const result = await channel.exchange('initialize', {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: options.clientCapabilities,
    clientInfo: options.clientInfo,
  });
  const version = result['protocolVersion'];
  if (version === MODERN_PROTOCOL_VERSION) throw new ModernInitializeAnswer();
  if (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))
    throw new Error(`Server's protocol version is not supported: ${String(version)}`);
  const capabilities = result['capabilities'];
  if (!isObject(capabilities))
    throw new Error('Server sent an invalid initialize result: no capabilities object');
  // HTTP transports send the negotiated version in a header on every later request.
  channel.transport.setProtocolVersion?.(version);
  await channel.notify('notifications/initialized');
  return { protocolVersion: version, capabilities, instructions: instructionsOf(result) };
}

/** The `instructions` of an initialize or server/discover result, when it is a text. */
export function instructionsOf(result: JsonObject): string | undefined {
  const instructions = result['instructions'];
  return typeof instructions === 'string' && instructions.trim() !== '' ? instructions : undefined;
}
