/** The capacity section of the report: calls/s from a raw load generator (bench/capacity.ts). */
import { count, ratio, table } from './format.js';
import type { UpstreamRun } from './suite.js';
import { TARGET_LABELS } from './targets.js';

export function capacitySection(run: UpstreamRun): string {
  const results = run.capacity;
  if (results === undefined || results.length === 0) return '';
  const hub = results.find((r) => r.target === 'mcp-hub' && r.failure === undefined);
  const rows = results.map((r) => [
    TARGET_LABELS[r.target],
    r.failure === undefined ? count(r.callsPerSecond) : 'could not run',
    hub === undefined ? '—' : ratio(r.callsPerSecond / hub.callsPerSecond),
    count(r.relayUs),
    count(r.oneSession.relayUs),
    count(r.upstreamUs),
    count(r.clientUs),
    String(r.errors),
  ]);
  const sessions = results[0]?.sessions ?? 0;
  const rounds = results[0]?.rounds.length ?? 0;
  return [
    `### Relay capacity — ${run.label} (${sessions} sessions from a raw load generator, calls/s, median of ${rounds} round${rounds === 1 ? '' : 's'}; CPU µs per call)`,
    table(
      [
        'target',
        'calls/s',
        '× mcp-hub',
        'relay CPU',
        'relay CPU, one session alone',
        'upstream processes CPU',
        'load generator CPU',
        'errors',
      ],
      rows,
    ),
  ].join('\n\n');
}
