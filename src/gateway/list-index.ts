import type { JsonObject } from '../domain/ports.js';
import type { CapabilityKind } from './capability-kinds.js';
import type { LoadedList } from './list-loader.js';

// Built once per loaded list and kind, and gone with the list: every call resolves its
// item here (for the approval gate's annotations), and a scan of a list of hundreds of
// tools per call was a measurable part of the relay.
const indexes = new WeakMap<LoadedList, Map<string, Map<string, JsonObject>>>();

/** The item of `list` whose key is `key` (the first, as a scan would find it). */
export function itemByKey(
  list: LoadedList,
  kind: CapabilityKind,
  key: string,
): JsonObject | undefined {
  let byKind = indexes.get(list);
  if (byKind === undefined) {
    byKind = new Map();
    indexes.set(list, byKind);
  }
  let index = byKind.get(kind.type);
  if (index === undefined) {
    index = new Map();
    for (const item of list.items) {
      const itemKey = kind.keyOf(item);
      if (itemKey !== undefined && !index.has(itemKey)) index.set(itemKey, item);
    }
    byKind.set(kind.type, index);
  }
  return index.get(key);
}
