import { CofferError } from '../domain/errors.js';
import { BUILTIN_SERVER_NAME, RESOURCE_SCHEME } from '../domain/naming.js';
import type { Clock, JsonObject } from '../domain/ports.js';
import { KeptResults } from './kept-results.js';
import { cutResult, pageCharsFor, resultChars, CHARS_PER_TOKEN } from './result-cut.js';
import { splitPages, type ResultPage } from './result-pages.js';

/** The daemon's limit on tool results (`COFFER_RESULT_BUDGET_TOKENS`, `COFFER_RESULT_TTL_MS`). */
export interface ResultLimit {
  readonly budgetTokens: number;
  readonly ttlMs: number;
}

/**
 * Where kept results live. The host is the built-in server name, which no upstream may
 * take, so these URIs never collide with an upstream's `coffer://<server>/…`.
 */
export const KEPT_RESULTS_PREFIX = `${RESOURCE_SCHEME}${BUILTIN_SERVER_NAME}/results/`;

/** A kept result's id, then anything after a slash: a page, read apart (`pageNumber`). */
const KEPT_URI = /^([A-Za-z0-9_-]{1,64})(?:\/(.*))?$/s;

/** A page is a whole number from 1; anything else names none. */
function pageNumber(text: string | undefined): number | undefined {
  if (text === undefined) return 1;
  return /^[1-9][0-9]{0,8}$/.test(text) ? Number(text) : undefined;
}

/**
 * One session's guard against tool results too big for its client (issue 20.4): a
 * result over the budget is cut (result-cut.ts) and kept whole for a while, readable in
 * pages through resources/read of `coffer://coffer/results/<id>/<page>`, which this
 * session answers itself.
 */
export class OversizedResults {
  private readonly kept: KeptResults;

  constructor(
    private readonly limit: ResultLimit,
    clock: Clock,
  ) {
    this.kept = new KeptResults({ clock, ttlMs: limit.ttlMs });
  }

  /** `result` when it fits the budget; else the cut answer, its whole kept under a new id. */
  fit(result: JsonObject): JsonObject {
    if (resultChars(result) <= this.limit.budgetTokens * CHARS_PER_TOKEN) return result;
    const pages = splitPages(result, pageCharsFor(this.limit.budgetTokens));
    const uri = KEPT_RESULTS_PREFIX + this.kept.keep(pages);
    return cutResult(result, pages, {
      budgetTokens: this.limit.budgetTokens,
      uri,
      keptFor: duration(this.limit.ttlMs),
    });
  }

  handles(uri: unknown): uri is string {
    return typeof uri === 'string' && uri.startsWith(KEPT_RESULTS_PREFIX);
  }

  /** The resources/read answer for one page (`<uri>` alone is page 1). */
  read(uri: string): JsonObject {
    const match = KEPT_URI.exec(uri.slice(KEPT_RESULTS_PREFIX.length));
    const pages = match === null ? undefined : this.kept.pages(match[1]!);
    if (match === null || pages === undefined) {
      throw new CofferError('CAPABILITY_NOT_FOUND', `No kept result at ${uri}`, {
        hint: `a result is kept ${duration(this.limit.ttlMs)} after its call, and only in its own session: call the tool again`,
        data: { uri },
      });
    }
    const number = pageNumber(match[2]);
    const page = number === undefined ? undefined : pages[number - 1];
    if (number === undefined || page === undefined)
      throw new CofferError(
        'INVALID_INPUT',
        `${uri} names page ${match[2] ?? ''}, but that result has pages 1 to ${pages.length}`,
        { data: { uri, pages: pages.length } },
      );
    return { contents: [pageContents(`${KEPT_RESULTS_PREFIX}${match[1]!}/${number}`, page)] };
  }
}

/** "30 minutes", "45 seconds": how long a result is kept, as the note and errors say it. */
function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes >= 1) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** A page as resource contents: text as text, media as a blob, an embedded resource as itself. */
function pageContents(uri: string, page: ResultPage): JsonObject {
  if (page.kind === 'text')
    return {
      uri,
      mimeType: page.source === 'structured' ? 'application/json' : 'text/plain',
      text: page.text,
    };
  const { item } = page;
  if (typeof item['data'] === 'string' && typeof item['mimeType'] === 'string')
    return { uri, mimeType: item['mimeType'], blob: item['data'] };
  const resource = item['resource'];
  if (item['type'] === 'resource' && resource !== null && typeof resource === 'object')
    return resource as JsonObject;
  return { uri, mimeType: 'application/json', text: JSON.stringify(item) };
}
