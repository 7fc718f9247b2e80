import type { JsonObject, UpstreamConnection } from '../domain/ports.js';
import type { CapabilityKind } from './capability-kinds.js';

/** Upstreams that page forever would hold a list open forever: cap the pages. */
const MAX_PAGES = 100;

/**
 * Fetches one capability list from an upstream, following `nextCursor`. undefined when
 * the upstream did not declare the capability (no round trip): not the same as empty.
 */
export async function fetchList(
  connection: UpstreamConnection,
  kind: CapabilityKind,
  timeoutMs: number,
): Promise<JsonObject[] | undefined> {
  if (connection.serverCapabilities[kind.serverCapability] === undefined) return undefined;
  const items: JsonObject[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = cursor === undefined ? undefined : { cursor };
    const result = await connection.request(kind.listMethod, params, { timeoutMs });
    const pageItems = result[kind.field];
    if (Array.isArray(pageItems)) {
      for (const item of pageItems) {
        if (
          item !== null &&
          typeof item === 'object' &&
          kind.keyOf(item as JsonObject) !== undefined
        )
          items.push(item as JsonObject);
      }
    }
    cursor = typeof result['nextCursor'] === 'string' ? result['nextCursor'] : undefined;
    if (cursor === undefined) break;
  }
  return items;
}
