import { useEffect, useState } from 'react';
import { api, errorText } from '../api/client.js';
import type { ActivityEntry, ActivityPage as Page, Server } from '../api/types.js';
import { Loading, Notice } from '../components/notice.js';
import { useDaemonEvents } from '../live/events.js';
import { parseRoute } from '../router.js';
import { useLoad } from '../use-load.js';
import { activityHash, filtersFromHash } from './activity-address.js';
import { ActivityFilters, type Filters } from './activity-filters.js';
import { ActivityTable, type Row } from './activity-table.js';

const PAGE_SIZE = 50;

function query(server: string | undefined, filters: Filters, before?: number): string {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (server !== undefined) params.set('server', server);
  if (filters.outcome !== '') params.set('outcome', filters.outcome);
  if (filters.since !== '') params.set('since', filters.since);
  if (before !== undefined) params.set('before_id', String(before));
  return `/activity?${params.toString()}`;
}

/** Filters the API has no parameter for (kind, free text), applied to what is loaded. */
function visible(entry: ActivityEntry, server: string | undefined, filters: Filters): boolean {
  if (server !== undefined && entry.server !== server) return false;
  if (filters.outcome !== '' && entry.outcome !== filters.outcome) return false;
  if (filters.kind === 'admin' && entry.capability_type !== 'admin') return false;
  if (filters.kind === 'calls' && entry.capability_type === 'admin') return false;
  const text = filters.text.trim().toLowerCase();
  if (text === '') return true;
  return [entry.client_name, entry.capability_key, entry.action, entry.server].some(
    (part) => part?.toLowerCase().includes(text) === true,
  );
}

let liveKey = 0;
const rowsOf = (entries: readonly ActivityEntry[]): Row[] =>
  entries.map((entry) => ({
    ...entry,
    rowKey: entry.id === undefined ? `live-${(liveKey += 1)}` : String(entry.id),
  }));

/** What agents called and what was changed, newest first, arriving live. */
export function ActivityPage({ server }: { server?: string }) {
  const [filters, setFilters] = useState<Filters>(() => filtersFromHash(window.location.hash));
  const [rows, setRows] = useState<Row[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const servers = useLoad(
    async () => (await api.get<{ servers: Server[] }>('/servers')).servers,
    'servers',
  );

  const load = async (before?: number) => {
    setLoading(true);
    try {
      const page = await api.get<Page>(query(server, filters, before));
      setRows((current) => [...(before === undefined ? [] : current), ...rowsOf(page.activity)]);
      setNext(page.next_before_id);
      setError(undefined);
    } catch (failure) {
      setError(failure);
    } finally {
      setLoading(false);
    }
  };

  // Reloads exactly when a filter the API applies changes; the others filter what is loaded.
  useEffect(() => void load(), [server, filters.outcome, filters.since]);

  // A link or the user's edit of the address changes them too (replaceState below fires
  // no hashchange, so this never echoes the page's own writes). Read from the event: the
  // route's own listener may have re-rendered, and rewritten the address, before this one.
  useEffect(() => {
    const follow = (event: HashChangeEvent) => {
      const hash = new URL(event.newURL).hash;
      if (parseRoute(hash).page === 'activity') setFilters(filtersFromHash(hash));
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  // Replaced, not pushed: the history gets no entry per keystroke in the search box.
  // The server is the address's own: a link to another page or server may have changed
  // it before this page heard, and must not be written over.
  useEffect(() => {
    const route = parseRoute(window.location.hash);
    if (route.page !== 'activity') return;
    const hash = activityHash(route.server, filters);
    if (window.location.hash !== hash) window.history.replaceState(null, '', hash);
  }, [server, filters]);

  useDaemonEvents((event) => {
    if (event.type === 'ready') void load();
    if (event.type === 'activity.recorded')
      setRows((current) => [...rowsOf([event.entry]), ...current]);
  });

  const set = (change: Partial<Filters>) => setFilters((current) => ({ ...current, ...change }));
  const shown = rows.filter((row) => visible(row, server, filters));

  return (
    <section aria-labelledby="activity-title">
      <div className="page-head">
        <div>
          <h1 id="activity-title">Activity</h1>
          <p className="lede">
            Every call an agent made through Coffer, and every change made here or in the CLI. New
            entries appear as they happen.
          </p>
        </div>
      </div>
      <ActivityFilters
        server={server}
        servers={servers.data?.map((s) => s.name) ?? []}
        filters={filters}
        onChange={set}
      />
      {error !== undefined && (
        <Notice tone="error" title="Could not load the activity">
          {errorText(error)}
        </Notice>
      )}
      {loading && rows.length === 0 && error === undefined && <Loading label="Loading activity…" />}
      {!loading && error === undefined && shown.length === 0 && (
        <Notice
          title={rows.length === 0 ? 'Nothing recorded yet' : 'Nothing matches these filters'}
        >
          {rows.length === 0
            ? 'Calls appear here as soon as an agent uses a tool, prompt or resource through Coffer.'
            : 'Clear a filter to see more.'}
        </Notice>
      )}
      {shown.length > 0 && <ActivityTable rows={shown} />}
      {next !== null && (
        <button
          type="button"
          className="button load-more"
          disabled={loading}
          onClick={() => void load(next)}
        >
          {loading ? 'Loading…' : 'Load older'}
        </button>
      )}
    </section>
  );
}
