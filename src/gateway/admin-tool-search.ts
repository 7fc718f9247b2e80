import { CofferError, toCofferError } from '../domain/errors.js';
import { exposedName } from '../domain/naming.js';
import type {
  CapabilityListing,
  JsonObject,
  ToolSearch,
  ToolSearchHit,
  ToolSearchQuery,
  ToolSearchResult,
} from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';
import { capabilityKinds } from './capability-kinds.js';
import { needsTasks } from './task-only-tools.js';
import { ToolIndex } from './tool-index.js';

export interface AdminToolSearchDeps {
  /** The enabled servers. */
  readonly servers: () => Promise<readonly ServerRecord[]>;
  /** One server's live tools with their preferences (the admin catalog). */
  readonly tools: (server: string) => Promise<CapabilityListing>;
}

interface Listed {
  readonly server: string;
  readonly tools: JsonObject[];
  /** Exposed name → upstream name. */
  readonly keys: Map<string, string>;
}

type Unavailable = ToolSearchResult['unavailable'][number];

/**
 * Tool search for the REST API (`coffer tools search`, the UI): the same ranking as
 * coffer__search_tools, over what an aggregated session would list, read live through
 * the admin catalog. The admin side has no list cache; the index re-indexes a server
 * only when its list reads differently from last time.
 */
export class AdminToolSearch implements ToolSearch {
  private readonly index = new ToolIndex();
  private readonly keys = new Map<string, Map<string, string>>();

  constructor(private readonly deps: AdminToolSearchDeps) {}

  async search(query: ToolSearchQuery): Promise<ToolSearchResult> {
    const enabled = await this.deps.servers();
    const searched = enabled.filter((s) => query.server === undefined || s.name === query.server);
    if (query.server !== undefined && searched.length === 0)
      throw new CofferError('SERVER_NOT_FOUND', `No enabled server named "${query.server}"`, {
        hint: 'see `coffer mcp list`',
      });
    const unavailable: Unavailable[] = [];
    for (const entry of await Promise.all(searched.map((server) => this.list(server.name)))) {
      if ('tools' in entry) {
        this.update(entry);
      } else {
        // An unreachable server is left out rather than searched with a stale list.
        unavailable.push(entry);
        this.forget(entry.server);
      }
    }
    this.index.retainServers(new Set(enabled.map((server) => server.name)));
    const tools = this.index.search(query.query, query).map((hit): ToolSearchHit => ({
      ...hit,
      tool: this.keys.get(hit.server)?.get(hit.name) ?? hit.name,
    }));
    return { tools, unavailable };
  }

  private async list(server: string): Promise<Listed | Unavailable> {
    let listing: CapabilityListing;
    try {
      listing = await this.deps.tools(server);
    } catch (error) {
      const failure = toCofferError(error);
      return { server, code: failure.code, message: failure.message };
    }
    if (listing.status === 'could-not-load') return { server, ...listing.error };
    const tools: JsonObject[] = [];
    const keys = new Map<string, string>();
    for (const view of listing.items) {
      const definition = view.definition;
      if (!view.enabled || definition === null) continue;
      if (needsTasks(capabilityKinds.tool, definition)) continue;
      const name = exposedName(server, view.key);
      keys.set(name, view.key);
      tools.push({ ...definition, name });
    }
    return { server, tools, keys };
  }

  private update(listed: Listed): void {
    this.index.setServer(listed.server, listed.tools);
    this.keys.set(listed.server, listed.keys);
  }

  private forget(server: string): void {
    this.index.removeServer(server);
    this.keys.delete(server);
  }
}
