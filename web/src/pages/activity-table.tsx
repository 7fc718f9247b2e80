import type { ActivityEntry } from '../api/types.js';
import { duration, timeOf } from '../format.js';

export type Row = ActivityEntry & { readonly rowKey: string };

/**
 * Admin actions carry the caller's User-Agent: a browser's is a paragraph, so it is
 * named for what it is (the full string stays in the tooltip).
 */
function clientOf(entry: ActivityEntry): string | undefined {
  const name = entry.client_name;
  if (name === null) return undefined;
  if (name.startsWith('Mozilla/')) return 'Web browser';
  // `node` is what the CLI sent before it named itself (rows kept from then).
  if (name === 'coffer-cli' || name === 'node') return 'coffer CLI';
  return name;
}

function capabilityOf(entry: ActivityEntry): string {
  if (entry.capability_type === 'admin')
    return [entry.action, entry.capability_key].filter((part) => part !== null).join(' ');
  return entry.capability_key ?? entry.action;
}

const guardLabels: Readonly<Record<string, string>> = {
  secret_blocked: 'Secret blocked',
  credential_flagged: 'Credential flagged',
  credential_blocked: 'Credential blocked',
  redacted: 'Secret redacted',
};

/** What the secret guard did to the call, one badge per event. */
function GuardBadges({ guard }: { guard: string | null | undefined }) {
  if (guard == null || guard === '') return null;
  return (
    <>
      {guard.split(',').map((event) => (
        <span key={event} className="guard-badge" data-guard={event}>
          {guardLabels[event] ?? event}
        </span>
      ))}
    </>
  );
}

/** Recent calls; on narrow screens each row becomes a card (see .activity in styles.css). */
export function ActivityTable({ rows }: { rows: readonly Row[] }) {
  return (
    <table className="activity">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Client</th>
          <th scope="col">Server</th>
          <th scope="col">Capability</th>
          <th scope="col" className="num">
            Duration
          </th>
          <th scope="col">Outcome</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.rowKey} className={row.outcome === 'error' ? 'is-error' : undefined}>
            <td data-label="Time" className="nowrap">
              <time dateTime={row.at}>{timeOf(row.at)}</time>
            </td>
            <td data-label="Client" title={row.client_name ?? undefined}>
              {clientOf(row) ?? <span className="muted">unknown</span>}
              {row.client_version !== null && <span className="muted"> {row.client_version}</span>}
            </td>
            <td data-label="Server">{row.server ?? <span className="muted">—</span>}</td>
            <td data-label="Capability">
              <span className={`kind kind-${row.capability_type}`}>{row.capability_type}</span>{' '}
              <code>{capabilityOf(row)}</code>
            </td>
            <td data-label="Duration" className="num">
              {duration(row.duration_ms)}
            </td>
            <td data-label="Outcome">
              {row.outcome === 'ok' ? (
                <span className="outcome outcome-ok">OK</span>
              ) : (
                <span className="outcome outcome-error">{row.error_code ?? 'Error'}</span>
              )}
              <GuardBadges guard={row.guard} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
