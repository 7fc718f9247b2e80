import type { Filters } from './activity-filters.js';

/**
 * The Activity page's filters live in its address, as its server filter does: a reload,
 * the history or a link shared keeps what the user chose. Only what differs from the
 * default is written, so the plain page stays `#/activity`.
 */
export const NO_FILTERS: Filters = { outcome: '', since: '', kind: 'all', text: '' };

const OUTCOMES: ReadonlySet<string> = new Set(['', 'ok', 'error']);
const KINDS: ReadonlySet<string> = new Set(['all', 'calls', 'admin']);
const SINCE = /^(\d+[mhd])?$/;

/** The filters a hash names; a value the page does not offer reads as its default. */
export function filtersFromHash(hash: string): Filters {
  const params = new URLSearchParams(hash.split('?')[1] ?? '');
  const outcome = params.get('outcome') ?? '';
  const kind = params.get('kind') ?? 'all';
  const since = params.get('since') ?? '';
  return {
    outcome: OUTCOMES.has(outcome) ? (outcome as Filters['outcome']) : '',
    kind: KINDS.has(kind) ? (kind as Filters['kind']) : 'all',
    since: SINCE.test(since) ? since : '',
    text: params.get('q') ?? '',
  };
}

/** The hash of the Activity page for a server (or all) and these filters. */
export function activityHash(server: string | undefined, filters: Filters): string {
  const params = new URLSearchParams();
  if (server !== undefined) params.set('server', server);
  if (filters.outcome !== NO_FILTERS.outcome) params.set('outcome', filters.outcome);
  if (filters.kind !== NO_FILTERS.kind) params.set('kind', filters.kind);
  if (filters.since !== NO_FILTERS.since) params.set('since', filters.since);
  if (filters.text !== NO_FILTERS.text) params.set('q', filters.text);
  const query = params.toString();
  return query === '' ? '#/activity' : `#/activity?${query}`;
}
