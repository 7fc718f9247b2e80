import type { JsonObject } from '../domain/ports.js';
import type { ToolsMode } from '../domain/tools-mode.js';
import { callToolDefinition, searchToolDefinition } from './builtin-tools.js';
import type { SessionCatalog } from './session-catalog.js';

/** What the request router needs of a catalog: lists to page, routes to follow. */
export type ListingCatalog = Pick<SessionCatalog, 'list' | 'resolve'>;

/**
 * The tools an aggregated session lists, by mode: every enabled upstream tool plus
 * coffer__search_tools (full), or only coffer__search_tools and coffer__call_tool
 * (lean). Lean never asks an upstream for its list, so tools/list starts nothing.
 * Only the list differs: calls are routed and checked the same way in both modes, so a
 * lean client that calls a found tool by its own name is served like any other.
 */
export function toolSurface(catalog: SessionCatalog, mode: ToolsMode): ListingCatalog {
  const lean = [searchToolDefinition('lean'), callToolDefinition()];
  // The same array while the catalog's is: a warm listing neither copies nor compares it.
  let full: { from: JsonObject[]; listed: JsonObject[] } | undefined;
  return {
    list: async (kind) => {
      if (kind.type !== 'tool') return catalog.list(kind);
      if (mode === 'lean') return lean;
      const from = await catalog.list(kind);
      if (full?.from !== from) full = { from, listed: [searchToolDefinition('full'), ...from] };
      return full.listed;
    },
    resolve: (type, exposed) => catalog.resolve(type, exposed),
  };
}
