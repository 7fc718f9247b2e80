import type { JsonObject } from '../domain/ports.js';
import { kindByListMethod } from './capability-kinds.js';
import type { SerializedResults } from './serialized-results.js';

/** Results the 2026-07-28 revision lets a client cache: they carry `ttlMs` and `cacheScope`. */
const CACHEABLE = new Set([
  ...kindByListMethod.keys(),
  'resources/read',
  'server/discover',
  // The Skills extension's results carry them too.
  'skills/list',
  'skills/get',
  'resources/directory/read',
]);

/**
 * The cache hints Coffer gives: 0 ms, since a list can change at any moment (a toggle in
 * the web UI, an upstream's list_changed) and listeners hear of it on
 * subscriptions/listen; private, since what one user enabled is theirs alone.
 */
export const CACHE_HINTS = { ttlMs: 0, cacheScope: 'private' } as const;

/**
 * A result as a 2026-07-28 client expects it: `resultType` (complete unless a modern
 * upstream already said otherwise, e.g. input_required) and cache hints where the
 * method is cacheable. A new object: list results are shared with 2025 sessions.
 */
export function modernResult(method: string, result: JsonObject): JsonObject {
  const resultType = typeof result['resultType'] === 'string' ? result['resultType'] : 'complete';
  if (resultType !== 'complete' || !CACHEABLE.has(method)) return { ...result, resultType };
  return { ...CACHE_HINTS, ...result, resultType };
}

/**
 * modernResult for the stateless service's answers. A list's result is the same object
 * while the list is unchanged (ListAnswers), so its modern form is made once too and kept
 * serialised: a warm 2026-07-28 list is written from kept bytes, as a session's is,
 * instead of half a megabyte of JSON.stringify per request. Other results go through.
 */
export class ModernResults {
  private readonly lists = new WeakMap<JsonObject, JsonObject>();

  constructor(private readonly serialized: SerializedResults) {}

  of(method: string, result: JsonObject): JsonObject {
    if (!kindByListMethod.has(method)) return modernResult(method, result);
    let modern = this.lists.get(result);
    if (modern === undefined) {
      modern = modernResult(method, result);
      this.lists.set(result, modern);
      this.serialized.keep(modern);
    }
    return modern;
  }
}
