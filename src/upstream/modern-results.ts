/**
 * A modern (2026-07-28) upstream's result, brought to the 2025 shape the rest of Coffer
 * relays: `resultType: "complete"` and the cache hints (`ttlMs`, `cacheScope`) and the
 * `serverInfo` stamp are dropped (they describe the upstream, not Coffer's answer). An
 * `input_required` result is left whole: the caller answers it (src/upstream/input-required.ts).
 */
import type { JsonObject } from '../domain/ports.js';
import { isObject } from './jsonrpc-envelope.js';
import { META } from '../domain/mcp-envelope.js';

export function isInputRequired(result: JsonObject): boolean {
  return result['resultType'] === 'input_required';
}

const UPSTREAM_ONLY = new Set(['resultType', 'ttlMs', 'cacheScope']);

export function completeResult(result: JsonObject): JsonObject {
  const body = Object.fromEntries(
    Object.entries(result).filter(([key]) => !UPSTREAM_ONLY.has(key)),
  );
  const meta = body['_meta'];
  if (!isObject(meta) || !(META.serverInfo in meta)) return body;
  const otherMeta = Object.fromEntries(
    Object.entries(meta).filter(([key]) => key !== META.serverInfo),
  );
  if (Object.keys(otherMeta).length > 0) return { ...body, _meta: otherMeta };
  delete body['_meta'];
  return body;
}
