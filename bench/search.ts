/**
 * `coffer__search_tools` query time, over the fan-out session's tools (20 × 50 + the
 * fixture's own): only when that built-in tool is listed; otherwise skipped with a note.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { percentiles, since, type Percentiles } from './stats.js';
import type { BenchSession } from './targets.js';

export const SEARCH_TOOL = 'coffer__search_tools';

export type SearchResult =
  | {
      readonly skipped: false;
      readonly queries: number;
      readonly errors: number;
      readonly latency: Percentiles;
    }
  | { readonly skipped: true; readonly note: string };

const QUERIES = [
  'weather forecast',
  'look up calendar events',
  'summarise git history',
  'compare invoice totals',
  'validate dns records',
  'export photo albums',
  'count shipping labels',
  'chess openings',
  'recipe ingredients for dinner',
  'server metrics',
  'train timetables tomorrow',
  'tax brackets',
  'echo my arguments',
  'flight delays at the airport',
  'ocean tides',
];

export async function measureSearch(
  session: BenchSession,
  listed: readonly string[],
  count: number,
): Promise<SearchResult> {
  if (!listed.includes(SEARCH_TOOL)) {
    return { skipped: true, note: `${SEARCH_TOOL} is not offered by this build (issue 9)` };
  }
  const times: number[] = [];
  let errors = 0;
  for (let i = 0; i < count; i++) {
    const query = QUERIES[i % QUERIES.length] ?? 'echo';
    const start = performance.now();
    const ok = await session.client
      .request(
        { method: 'tools/call', params: { name: SEARCH_TOOL, arguments: { query } } },
        CallToolResultSchema,
      )
      .then((result) => result.isError !== true)
      .catch(() => false);
    times.push(since(start));
    if (!ok) errors++;
  }
  return { skipped: false, queries: count, errors, latency: percentiles(times) };
}
