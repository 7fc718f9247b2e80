import MiniSearch, { type SearchOptions } from 'minisearch';
import type { JsonObject } from '../domain/ports.js';
import { processTerm, tokenize } from './search-text.js';

/** One tool found by a search: what a model needs to call it. */
export interface ToolHit {
  /** The name it is called by (`<server>__<name>` in aggregated sessions). */
  readonly name: string;
  readonly server: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  /** BM25 score: only meaningful against other hits of the same search. */
  readonly score: number;
}

export interface ToolSearchOptions {
  readonly limit: number;
  /** Only tools of this server. */
  readonly server?: string;
}

/** What is indexed of one tool: each field is scored on its own, then weighted. */
interface ToolDocument {
  readonly id: string;
  readonly server: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly parameters: string;
}

interface ServerEntry {
  /** Whatever the caller synced from; the same value again means nothing changed. */
  source: unknown;
  /** The tools as JSON: a reloaded but identical list (every TTL) is not re-indexed. */
  readonly signature: string;
  readonly documents: readonly ToolDocument[];
}

/**
 * A name says what a tool does more precisely than prose, which also describes caveats
 * and neighbours ("DEPRECATED: use read_text_file"): names weigh most, parameters least.
 * Prefix matching lets "repo" find "repository"; fuzzy matching absorbs typos in long
 * words only, where it cannot turn one short word into another.
 */
const SEARCH_OPTIONS: SearchOptions = {
  boost: { name: 3, title: 2, description: 1, parameters: 0.5, server: 1.5 },
  prefix: (term) => term.length >= 4,
  fuzzy: (term) => (term.length >= 7 ? 0.15 : false),
  combineWith: 'OR',
};

/** Nested schemas are followed this deep: enough for `edits[].oldText`, bounded for cycles. */
const MAX_SCHEMA_DEPTH = 4;

/**
 * BM25 (minisearch, BM25+) over the tools of many servers, kept per server so that a
 * change of one server's list re-indexes that server alone.
 */
export class ToolIndex {
  private readonly engine = new MiniSearch<ToolDocument>({
    fields: ['name', 'title', 'description', 'parameters', 'server'],
    tokenize,
    processTerm,
    storeFields: ['server'],
    searchOptions: SEARCH_OPTIONS,
  });
  private readonly servers = new Map<string, ServerEntry>();
  private readonly tools = new Map<string, JsonObject>();

  /** How many tools are indexed. */
  get size(): number {
    return this.tools.size;
  }

  /**
   * Replaces the tools of `server` (each with its callable name in `name`). Skipped when
   * `source` is the value of the previous call (callers pass the list object they read,
   * so an unchanged list costs nothing) or when the tools read the same as before.
   * Returns whether the index changed.
   */
  setServer(server: string, tools: readonly JsonObject[], source?: object): boolean {
    const previous = this.servers.get(server);
    if (previous !== undefined && source !== undefined && previous.source === source) return false;
    const signature = JSON.stringify(tools);
    if (previous !== undefined && previous.signature === signature) {
      previous.source = source;
      return false;
    }
    this.removeServer(server);
    const documents: ToolDocument[] = [];
    for (const tool of tools) {
      const name = tool['name'];
      // A name listed twice (by two servers, or twice by one) is indexed once.
      if (typeof name !== 'string' || this.tools.has(name)) continue;
      const document = toolDocument(server, name, tool);
      this.engine.add(document);
      this.tools.set(name, tool);
      documents.push(document);
    }
    this.servers.set(server, { source, signature, documents });
    return true;
  }

  removeServer(server: string): void {
    const entry = this.servers.get(server);
    if (entry === undefined) return;
    for (const document of entry.documents) {
      this.engine.remove(document);
      this.tools.delete(document.id);
    }
    this.servers.delete(server);
  }

  /** Drops every server not in `keep`. */
  retainServers(keep: ReadonlySet<string>): void {
    for (const server of [...this.servers.keys()]) if (!keep.has(server)) this.removeServer(server);
  }

  search(query: string, options: ToolSearchOptions): ToolHit[] {
    const { server } = options;
    const results = this.engine.search(query, {
      ...(server === undefined ? {} : { filter: (result) => result['server'] === server }),
    });
    const hits: ToolHit[] = [];
    for (const result of results.slice(0, options.limit)) {
      const tool = this.tools.get(result.id as string);
      if (tool !== undefined) hits.push(toolHit(tool, String(result['server']), result.score));
    }
    return hits;
  }
}

function toolDocument(server: string, name: string, tool: JsonObject): ToolDocument {
  const upstreamName = name.startsWith(`${server}__`) ? name.slice(server.length + 2) : name;
  return {
    id: name,
    server,
    name: upstreamName,
    title: textOf(tool['title']) + ' ' + textOf(annotationTitle(tool)),
    description: textOf(tool['description']),
    parameters: parameterText(tool['inputSchema'], 0).join(' '),
  };
}

/** Parameter names and descriptions, nested objects and array items included. */
function parameterText(schema: unknown, depth: number): string[] {
  if (depth > MAX_SCHEMA_DEPTH || schema === null || typeof schema !== 'object') return [];
  const object = schema as JsonObject;
  const words: string[] = [];
  const properties = object['properties'];
  if (properties !== null && typeof properties === 'object') {
    for (const [key, value] of Object.entries(properties as JsonObject)) {
      words.push(key);
      if (value !== null && typeof value === 'object')
        words.push(textOf((value as JsonObject)['description']));
      words.push(...parameterText(value, depth + 1));
    }
  }
  words.push(...parameterText(object['items'], depth + 1));
  return words;
}

function toolHit(tool: JsonObject, server: string, score: number): ToolHit {
  const title = typeof tool['title'] === 'string' ? tool['title'] : annotationTitle(tool);
  const schema = tool['inputSchema'];
  return {
    name: String(tool['name']),
    server,
    ...(title === undefined ? {} : { title }),
    description: textOf(tool['description']),
    inputSchema:
      schema !== null && typeof schema === 'object' ? (schema as JsonObject) : { type: 'object' },
    score: Math.round(score * 1000) / 1000,
  };
}

/** Older servers put the title in `annotations.title`. */
function annotationTitle(tool: JsonObject): string | undefined {
  const annotations = tool['annotations'];
  if (annotations === null || typeof annotations !== 'object') return undefined;
  const title = (annotations as JsonObject)['title'];
  return typeof title === 'string' ? title : undefined;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
