import { navigate } from '../router.js';
import { activityHash } from './activity-address.js';

export interface Filters {
  readonly outcome: '' | 'ok' | 'error';
  readonly since: string;
  readonly kind: 'all' | 'calls' | 'admin';
  readonly text: string;
}

const SINCE = [
  ['', 'Any time'],
  ['15m', 'Last 15 minutes'],
  ['1h', 'Last hour'],
  ['1d', 'Last day'],
  ['7d', 'Last 7 days'],
] as const;

/** The filters of the Activity page; all of them live in its address (activity-address.ts). */
export function ActivityFilters(props: {
  readonly server: string | undefined;
  readonly servers: readonly string[];
  readonly filters: Filters;
  readonly onChange: (change: Partial<Filters>) => void;
}) {
  const { server, servers, filters, onChange: set } = props;
  return (
    <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filter activity">
      <label>
        Server
        <select
          value={server ?? ''}
          onChange={(e) =>
            navigate(activityHash(e.target.value === '' ? undefined : e.target.value, filters))
          }
        >
          <option value="">All servers</option>
          {servers.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Outcome
        <select
          value={filters.outcome}
          onChange={(e) => set({ outcome: e.target.value as Filters['outcome'] })}
        >
          <option value="">Any</option>
          <option value="ok">OK</option>
          <option value="error">Errors</option>
        </select>
      </label>
      <label>
        Kind
        <select
          value={filters.kind}
          onChange={(e) => set({ kind: e.target.value as Filters['kind'] })}
        >
          <option value="all">Everything</option>
          <option value="calls">Calls</option>
          <option value="admin">Changes</option>
        </select>
      </label>
      <label>
        When
        <select value={filters.since} onChange={(e) => set({ since: e.target.value })}>
          {SINCE.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="grow">
        Search
        <input
          type="search"
          placeholder="client, tool, action…"
          value={filters.text}
          onChange={(e) => set({ text: e.target.value })}
        />
      </label>
    </form>
  );
}
