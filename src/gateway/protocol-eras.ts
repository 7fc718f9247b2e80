import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { META, MODERN_PROTOCOL_VERSION } from '../domain/mcp-envelope.js';
import type { JsonObject } from '../domain/ports.js';

/**
 * The two protocol eras Coffer speaks downstream (docs/GLOSSARY.md "era"): 2025-11-25
 * and older open a session with `initialize`; 2026-07-28 has no handshake, every
 * request carries the `_meta` envelope and is answered on its own.
 */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];

/** What `initialize` may settle on: never a modern version (it has no handshake). */
export const HANDSHAKE_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/** Every version Coffer speaks, newest first (server/discover, the -32022 error's data). */
export const ALL_PROTOCOL_VERSIONS: readonly string[] = [
  ...MODERN_PROTOCOL_VERSIONS,
  ...HANDSHAKE_PROTOCOL_VERSIONS,
];

/** Revision ids are ISO dates: every revision from 2026-07-28 on is modern. */
export function isModernVersion(version: string): boolean {
  return version >= MODERN_PROTOCOL_VERSION;
}

/** What one 2026-07-28 request says about its client. */
export interface Envelope {
  readonly protocolVersion: string;
  readonly clientCapabilities: JsonObject;
  readonly clientInfo: { readonly name: string | null; readonly version: string | null };
}

/** The `_meta` of a message's params, when it is an object. */
export function metaOf(params: unknown): JsonObject | undefined {
  if (!isObject(params)) return undefined;
  const meta = params['_meta'];
  return isObject(meta) ? meta : undefined;
}

/** The message claims the modern era: its `_meta` names a protocol version. */
export function hasEnvelopeClaim(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && META.protocolVersion in meta;
}

/** The envelope of a claiming message, or why it is malformed. */
export function readEnvelope(params: unknown): Envelope | string {
  const meta = metaOf(params) ?? {};
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string') return `${META.protocolVersion} must be a string`;
  const capabilities = meta[META.clientCapabilities];
  if (!isObject(capabilities)) return `${META.clientCapabilities} must be an object`;
  const given = meta[META.clientInfo];
  const info = isObject(given) ? given : {};
  return {
    protocolVersion: version,
    clientCapabilities: capabilities,
    clientInfo: { name: stringOrNull(info['name']), version: stringOrNull(info['version']) },
  };
}

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
