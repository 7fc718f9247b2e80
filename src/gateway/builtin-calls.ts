import { CofferError } from '../domain/errors.js';
import type { JsonObject } from '../domain/ports.js';
import {
  CALL_TOOL,
  SEARCH_TOOL,
  isBuiltinTool,
  parseSearchArguments,
  searchResult,
  toolError,
  type SearchArguments,
} from './builtin-tools.js';
import { capabilityKinds } from './capability-kinds.js';
import type { RoutedRequestOptions } from './upstream-forward.js';
import type { SessionCatalog } from './session-catalog.js';
import { ToolIndex, type ToolHit } from './tool-index.js';

export interface BuiltinCallsDeps {
  /** The session's live lists: the index is built from exactly what the session lists. */
  readonly catalog: Pick<SessionCatalog, 'listByServer'>;
  /**
   * tools/call through the session's TargetRelay, so coffer__call_tool gets the same
   * preference check, progress, cancellation and activity record as a direct call.
   */
  readonly callTool: (params: JsonObject, options: RoutedRequestOptions) => Promise<JsonObject>;
}

/**
 * Answers calls of Coffer's built-in tools in one aggregated session. The session's own
 * index follows its live lists: before each search the lists are read (cached, 60 s),
 * and only servers whose list was reloaded since are re-indexed. Searches are not
 * recorded in the activity log: like lists, they run no upstream tool.
 */
export class BuiltinCalls {
  private readonly index = new ToolIndex();

  constructor(private readonly deps: BuiltinCallsDeps) {}

  handles(method: string, params: JsonObject | undefined): boolean {
    return method === 'tools/call' && isBuiltinTool(params?.['name']);
  }

  call(params: JsonObject, options: RoutedRequestOptions): Promise<JsonObject> {
    return params['name'] === SEARCH_TOOL
      ? this.searchTool(params['arguments'])
      : this.callTool(params, options);
  }

  /** The enabled tools of this session that best match `query`. */
  async search(query: SearchArguments): Promise<ToolHit[]> {
    const lists = await this.deps.catalog.listByServer(capabilityKinds.tool);
    for (const { server, source, items } of lists) this.index.setServer(server, items, source);
    this.index.retainServers(new Set(lists.map((list) => list.server)));
    return this.index.search(query.query, query);
  }

  private async searchTool(args: unknown): Promise<JsonObject> {
    let query: SearchArguments;
    try {
      query = parseSearchArguments(args);
    } catch (error) {
      if (!(error instanceof CofferError)) throw error;
      return toolError(error.message);
    }
    return searchResult(await this.search(query), query);
  }

  private async callTool(params: JsonObject, options: RoutedRequestOptions): Promise<JsonObject> {
    const args = objectOrUndefined(params['arguments']) ?? {};
    const name = args['name'];
    const inner = args['arguments'];
    if (typeof name !== 'string' || name === '')
      return toolError('"name" must be the name of a tool, as coffer__search_tools gave it');
    if (inner !== undefined && objectOrUndefined(inner) === undefined)
      return toolError('"arguments" must be an object');
    if (name === CALL_TOOL) return toolError('coffer__call_tool cannot call itself');
    if (name === SEARCH_TOOL) return this.searchTool(inner);
    const meta = params['_meta'];
    return this.deps.callTool(
      {
        name,
        ...(inner === undefined ? {} : { arguments: inner }),
        // The progress token rides in _meta: the routed call reports progress under it.
        ...(meta === undefined ? {} : { _meta: meta }),
      },
      options,
    );
  }
}

function objectOrUndefined(value: unknown): JsonObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}
