/**
 * The two eras of MCP an upstream may speak. `legacy` is the 2025 line (an `initialize`
 * handshake, then a stateful session); `modern` is 2026-07-28 and later: no handshake,
 * every request carries the `_meta` envelope (protocol version, client capabilities,
 * client info) and the server keeps no per-connection state.
 */
import { META, MODERN_PROTOCOL_VERSION } from '../domain/mcp-envelope.js';
import type { JsonObject } from '../domain/ports.js';
import { isObject } from './jsonrpc-envelope.js';

export type ProtocolEra = 'legacy' | 'modern';

export interface RequestEnvelope {
  readonly clientCapabilities: JsonObject;
  readonly clientInfo: { readonly name: string; readonly version: string };
}

/** `params` with the modern `_meta` envelope merged in (the caller's own `_meta` kept). */
export function withEnvelope(
  params: JsonObject | undefined,
  envelope: RequestEnvelope,
): JsonObject {
  const meta = isObject(params?.['_meta']) ? params['_meta'] : {};
  return {
    ...params,
    _meta: {
      ...meta,
      [META.protocolVersion]: MODERN_PROTOCOL_VERSION,
      [META.clientCapabilities]: envelope.clientCapabilities,
      [META.clientInfo]: envelope.clientInfo,
    },
  };
}

/** True when the params already carry an envelope (a shared connection's lease stamped it). */
function hasEnvelope(params: JsonObject | undefined): boolean {
  const meta = params?.['_meta'];
  return isObject(meta) && META.protocolVersion in meta;
}

/**
 * The request `_meta` keys that make up a 2026-07-28 envelope. Only these: other
 * reserved keys (related-task, ui, a progress token) mean the same in both eras.
 */
const ENVELOPE_KEYS: readonly string[] = [
  META.protocolVersion,
  META.clientCapabilities,
  META.clientInfo,
  META.logLevel,
];

/**
 * `params` as a 2025 upstream should see them: a 2026-07-28 client's envelope keys (its
 * capabilities and identity) removed, every other `_meta` key kept, and a `_meta` left
 * empty dropped. Params without envelope keys are returned as they are.
 */
export function withoutEnvelope(params: JsonObject | undefined): JsonObject | undefined {
  const meta = params?.['_meta'];
  if (!isObject(meta) || !ENVELOPE_KEYS.some((key) => key in meta)) return params;
  const kept = Object.entries(meta).filter(([key]) => !ENVELOPE_KEYS.includes(key));
  const rest = Object.entries(params ?? {}).filter(([key]) => key !== '_meta');
  return kept.length === 0
    ? Object.fromEntries(rest)
    : { ...Object.fromEntries(rest), _meta: Object.fromEntries(kept) };
}

/** `params` for an upstream of this era: stamped for a modern one, unstamped for a 2025 one. */
export function paramsForEra(
  era: ProtocolEra,
  params: JsonObject | undefined,
  envelope: RequestEnvelope,
): JsonObject | undefined {
  if (era === 'legacy') return withoutEnvelope(params);
  return hasEnvelope(params) ? params : withEnvelope(params, envelope);
}
