import type { ActivityEntry } from '../../domain/ports.js';
import type { Colors } from './colors.js';

/** A row of GET /api/v1/activity. */
export type ActivityRow = ActivityEntry & { readonly id: number };

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** Local time, to the second: what a user compares with their own clock. */
export function localTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return `${date} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

function client(row: ActivityRow): string {
  if (row.client_name === null) return '-';
  // A change made in the web UI carries the browser's User-Agent, a paragraph cut to
  // nonsense here: named as the Activity page names it (`--json` keeps it whole).
  if (row.client_name.startsWith('Mozilla/')) return 'web browser';
  return row.client_version === null ? row.client_name : `${row.client_name} ${row.client_version}`;
}

/**
 * One line per entry, oldest first, the same in a listing and in `--follow`:
 * `time  client  action  server  key  duration  outcome  [guard]`.
 */
export function renderActivityLine(row: ActivityRow, colors: Colors): string {
  const outcome =
    row.outcome === 'ok' ? colors.green('ok') : colors.red(`error ${row.error_code ?? ''}`.trim());
  const duration = row.duration_ms === null ? '' : `${row.duration_ms} ms`;
  const cells = [
    colors.dim(localTime(row.at)),
    client(row).slice(0, 40).padEnd(20),
    // As wide as the longest action, capability.disable, so that --follow lines align too.
    row.action.padEnd(18),
    (row.server ?? '-').padEnd(12),
    (row.capability_key ?? '-').padEnd(20),
    duration.padStart(8),
    outcome,
    ...(row.guard == null ? [] : [colors.yellow(`guard: ${row.guard}`)]),
  ];
  return `${cells.join('  ')}\n`;
}
