/**
 * The per-upstream summary at the top of the report: every target in one table, with its
 * latency, its calls/s at 16 sessions, and what its relay process (Coffer's daemon,
 * mcp-hub) costs per call in CPU and holds in memory. "Sequential" figures come from the
 * latency rounds (one session, one call at a time), the others from the throughput level.
 */
import { count, mb, ms, table } from './format.js';
import type { UpstreamRun } from './suite.js';
import { TARGET_LABELS } from './targets.js';
import { comparedLevel, levelOf } from './throughput.js';

export function sideBySideSection(run: UpstreamRun): string {
  const sessions = comparedLevel(run.throughput ?? []);
  const at = Number.isFinite(sessions)
    ? `${sessions} session${sessions === 1 ? '' : 's'}`
    : 'no throughput run';
  const rows = (run.latency ?? []).map((latency) => {
    const level = levelOf(run.throughput, latency.target, sessions);
    const failed = latency.failure !== undefined;
    return [
      TARGET_LABELS[latency.target],
      failed ? 'could not run' : ms(latency.median.p50),
      failed ? '—' : ms(latency.median.p99),
      count(level?.callsPerSecond),
      micros(latency.cpu.relayUs),
      micros(level?.relayCpuUsPerCall),
      micros(latency.cpu.shimUs),
      micros(latency.cpu.clientUs),
      `${mb(latency.relayRssMb)} / ${mb(level?.relayRssMb)}`,
    ];
  });
  return [
    `### Side by side — ${run.label}`,
    hubNote(run),
    table(
      [
        'target',
        'p50 ms',
        'p99 ms',
        `calls/s, ${at}`,
        'relay CPU µs/call, sequential',
        `relay CPU µs/call, ${at}`,
        'shim CPU µs/call',
        'bench client CPU µs/call',
        `relay RSS, sequential / ${at}`,
      ],
      rows,
    ),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

function micros(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : count(value);
}

/** Why the mcp-hub row is missing, when it is. */
export function hubNote(run: UpstreamRun): string {
  const { version, failure } = run.mcpHub;
  if (version === undefined) {
    return '_mcp-hub is not installed (`npm install -D mcp-hub@4.2.1`): its row is left out._';
  }
  if (failure !== undefined)
    return `_mcp-hub ${version} did not start (${failure}): its row is left out._`;
  return `_mcp-hub ${version}: one process, one connection to the upstream shared by all its sessions._`;
}
