import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch';
import type { JsonObject } from '../domain/ports.js';
import { processTerm, tokenize } from './search-text.js';
import { everydayWords, toolWords } from './search-vocabulary.js';

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
  /** Everyday words for the words of the name, title and server (search-vocabulary.ts). */
  readonly nameAliases: string;
  /** Everyday words for the words of the description. */
  readonly descriptionAliases: string;
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
 * The everyday words for a tool's words (search-vocabulary.ts) weigh as much as prose
 * when they come from the name, a third of that from the description, so a tool's own
 * words still win over a relative's (dev recall is flat from 0.5 to 1.5 and 0.15 to 0.6).
 * Prefix matching lets "repo" find "repository"; fuzzy matching absorbs typos in long
 * words only, where it cannot turn one short word into another.
 */
const SEARCH_OPTIONS: SearchOptions = {
  boost: {
    name: 3,
    title: 2,
    description: 1,
    parameters: 0.5,
    server: 1.5,
    nameAliases: 1,
    descriptionAliases: 0.3,
  },
  prefix: (term) => term.length >= 4,
  fuzzy: (term) => (term.length >= 7 ? 0.15 : false),
  combineWith: 'OR',
};

/** The fields that hold the tool's own words (the rest hold everyday words for them). */
const TOOL_FIELDS = ['name', 'title', 'description', 'parameters', 'server'];

/**
 * Tool words are matched exactly: they are the tools' own vocabulary, and prefix and
 * fuzzy lookups of a dozen related words would make each search several times slower.
 */
const RELATED_OPTIONS: SearchOptions = { fields: TOOL_FIELDS, prefix: false, fuzzy: false };

/**
 * What a match through the query's everyday words is worth against a match of the words
 * themselves. Chosen on the dev queries of the evaluation; anything from 0.15 to 0.4
 * scores the same recall there, 0.3 the best MRR.
 */
const RELATED_WEIGHT = 0.3;

/** Nested schemas are followed this deep: enough for `edits[].oldText`, bounded for cycles. */
const MAX_SCHEMA_DEPTH = 4;

/**
 * BM25 (minisearch, BM25+) over the tools of many servers, kept per server so that a
 * change of one server's list re-indexes that server alone. People ask in their own
 * words ("make a new folder"), so both sides are widened through search-vocabulary.ts:
 * each tool also indexes the everyday words for its words, and each query is also
 * searched, at a lower weight, as the tool words for its everyday words. docs/SEARCH.md
 * says why and how it is measured.
 */
export class ToolIndex {
  private readonly engine = new MiniSearch<ToolDocument>({
    fields: [...TOOL_FIELDS, 'nameAliases', 'descriptionAliases'],
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
    const filter: SearchOptions =
      server === undefined ? {} : { filter: (result) => result['server'] === server };
    const scores = new Map<string, { server: string; score: number }>();
    addScores(scores, this.engine.search(query, filter), 1);
    // The query's everyday words read as tool words ("make" → create, "folder" →
    // directory), searched on their own so that they add to the query's own matches
    // without counting as more matched query words.
    const related = toolWords(query);
    if (related !== '')
      addScores(
        scores,
        this.engine.search(related, { ...filter, ...RELATED_OPTIONS }),
        RELATED_WEIGHT,
      );
    const ranked = [...scores].sort((a, b) => b[1].score - a[1].score).slice(0, options.limit);
    const hits: ToolHit[] = [];
    for (const [id, { server: owner, score }] of ranked) {
      const tool = this.tools.get(id);
      if (tool !== undefined) hits.push(toolHit(tool, owner, score));
    }
    return hits;
  }
}

function addScores(
  scores: Map<string, { server: string; score: number }>,
  results: readonly SearchResult[],
  weight: number,
): void {
  for (const result of results) {
    const id = String(result.id);
    const known = scores.get(id);
    if (known === undefined)
      scores.set(id, { server: String(result['server']), score: result.score * weight });
    else known.score += result.score * weight;
  }
}

function toolDocument(server: string, name: string, tool: JsonObject): ToolDocument {
  const upstreamName = name.startsWith(`${server}__`) ? name.slice(server.length + 2) : name;
  const title = textOf(tool['title']) + ' ' + textOf(annotationTitle(tool));
  const description = textOf(tool['description']);
  return {
    id: name,
    server,
    name: upstreamName,
    title,
    description,
    parameters: parameterText(tool['inputSchema'], 0).join(' '),
    nameAliases: everydayWords(`${upstreamName} ${title} ${server}`),
    descriptionAliases: everydayWords(description),
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
