/** Tool search (implemented by the gateway, same ranking as coffer__search_tools). */
import type { JsonObject } from './upstream-port.js';

export interface ToolSearchQuery {
  readonly query: string;
  readonly limit: number;
  /** Only tools of this server. */
  readonly server?: string;
}

export interface ToolSearchHit {
  /** The name agents call it by through `/mcp` (`<server>__<name>`). */
  readonly name: string;
  readonly server: string;
  /** The upstream's own name. */
  readonly tool: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  /** Relative to the other hits of the same search only. */
  readonly score: number;
}

export interface ToolSearchResult {
  readonly tools: readonly ToolSearchHit[];
  /** Enabled servers whose tools could not be listed: not searched, not "no match". */
  readonly unavailable: readonly {
    readonly server: string;
    readonly code: string;
    readonly message: string;
  }[];
}

/** Ranks the enabled tools of every enabled server (`GET /api/v1/tools/search`). */
export interface ToolSearch {
  search(query: ToolSearchQuery): Promise<ToolSearchResult>;
}
