/**
 * The targets of issue 17 (the fast relay) computed from this run, one column per upstream
 * run. Reported, never asserted: "met" / "missed" is information for the reader, not an exit
 * code. Every ratio is taken between targets measured in the same run (latency: per round,
 * then the median across rounds).
 */
import type { FanOutResult } from './fan-out.js';
import { count, ms, ratio, table } from './format.js';
import { p50RatioByRound, type TargetLatency } from './latency.js';
import type { BenchResults } from './results.js';
import type { UpstreamRun } from './suite.js';
import type { TargetId } from './targets.js';
import { comparedLevel, levelOf } from './throughput.js';

export interface TargetCell {
  readonly measured: string;
  /** undefined when this run did not measure it. */
  readonly met: boolean | undefined;
}

export interface TargetRow {
  readonly target: string;
  /** One per upstream run, in the order of `results.runs`. */
  readonly cells: readonly TargetCell[];
}

const NOT_MEASURED: TargetCell = { measured: '—', met: undefined };

export function checkTargets(results: BenchResults): TargetRow[] {
  const rows: { target: string; check: (run: UpstreamRun) => TargetCell }[] = [
    { target: 'through the shim: p50 ≤ 2.5× direct stdio', check: shimLatency },
    { target: 'over HTTP: p50 ≤ 0.8× mcp-hub', check: httpLatencyVsHub },
    { target: 'over HTTP: calls/s ≥ 1.2× mcp-hub (16 sessions)', check: httpRateVsHub },
    { target: 'over HTTP: calls/s ≥ 0.5× direct stdio (16 sessions)', check: httpRateVsStdio },
    { target: 'daemon CPU per relayed call ≤ 0.25 ms', check: daemonCpu },
    {
      target: 'over HTTP, upstream shared (opt-in): calls/s ≥ 1.2× mcp-hub (16 sessions)',
      check: sharedRateVsHub,
    },
    // The same three with a raw load generator in place of the SDK client, whose one
    // thread saturates first (bench/capacity.ts): rows of their own, verdicts of their own.
    {
      target: 'raw load generator, over HTTP: calls/s ≥ 1.2× mcp-hub (16 sessions)',
      check: (run) => hubMissing(run) ?? capacityRateOver(run, 'coffer-http', 'mcp-hub', 1.2),
    },
    {
      target: 'raw load generator, over HTTP: calls/s ≥ 0.5× direct stdio (16 sessions)',
      check: (run) => capacityRateOver(run, 'coffer-http', 'direct-stdio', 0.5),
    },
    {
      target: 'raw load generator, upstream shared: calls/s ≥ 1.2× mcp-hub (16 sessions)',
      check: (run) =>
        hubMissing(run) ?? capacityRateOver(run, 'coffer-http-shared', 'mcp-hub', 1.2),
    },
  ];
  const fanOut = results.fanOut;
  const warm: TargetCell =
    fanOut === undefined
      ? NOT_MEASURED
      : verdict(
          // The round trip includes the client's parse of the whole list: the daemon's
          // own CPU per listing, a raw client's read and the same client's listing of one
          // direct server of all those tools are shown beside it, so the reader sees whose
          // time it is. The verdict stays on the round trip.
          `${ms(fanOut.warm.p50)} ms p50${warmContext(fanOut)}`,
          fanOut.warm.p50 <= 2,
        );
  const [first, ...others] = results.runs;
  return [
    ...rows.map(({ target, check }) => ({ target, cells: results.runs.map(check) })),
    {
      // The fan-out section has its own upstreams: its figure sits in the first column.
      target: `warm tools/list over ${fanOut?.servers ?? 20} upstreams × ${fanOut?.toolsPerServer ?? 50} tools ≤ 2 ms`,
      cells: first === undefined ? [] : [warm, ...others.map(() => NOT_MEASURED)],
    },
  ];
}

export function targetsSection(results: BenchResults): string {
  const rows = checkTargets(results);
  const cell = (c: TargetCell): string =>
    c.met === undefined ? c.measured : `${c.measured}: ${c.met ? 'met' : '**missed**'}`;
  const runs = results.runs.length > 0 ? results.runs : [];
  return [
    '### Targets (issue 17) vs this run — ratios between targets measured in the same run',
    table(
      ['target', ...runs.map((run) => run.label)],
      rows.map((row) => [row.target, ...row.cells.map(cell)]),
    ),
  ].join('\n\n');
}

function verdict(measured: string, met: boolean): TargetCell {
  return { measured, met };
}

function latencyOf(run: UpstreamRun, target: TargetId): TargetLatency | undefined {
  const found = run.latency?.find((r) => r.target === target);
  return found?.failure === undefined && (found?.rounds.length ?? 0) > 0 ? found : undefined;
}

function shimLatency(run: UpstreamRun): TargetCell {
  const shim = latencyOf(run, 'coffer-shim');
  const stdio = latencyOf(run, 'direct-stdio');
  if (shim === undefined || stdio === undefined || !Number.isFinite(shim.ratioP50))
    return NOT_MEASURED;
  const floor = latencyOf(run, 'relay-floor');
  const beside =
    floor === undefined || !Number.isFinite(floor.ratioP50)
      ? ''
      : `; two byte-copying relays: ${ratio(floor.ratioP50)}`;
  const detail = `${ratio(shim.ratioP50)} (${ms(shim.median.p50)} vs ${ms(stdio.median.p50)} ms${beside})`;
  return verdict(detail, shim.ratioP50 <= 2.5);
}

function hubMissing(run: UpstreamRun): TargetCell | undefined {
  if (run.mcpHub.version === undefined)
    return { measured: '— (mcp-hub not installed)', met: undefined };
  if (run.mcpHub.failure !== undefined)
    return { measured: '— (mcp-hub did not start)', met: undefined };
  return undefined;
}

function httpLatencyVsHub(run: UpstreamRun): TargetCell {
  const missing = hubMissing(run);
  if (missing !== undefined) return missing;
  const http = latencyOf(run, 'coffer-http');
  const hub = latencyOf(run, 'mcp-hub');
  if (http === undefined || hub === undefined) return NOT_MEASURED;
  const value = p50RatioByRound(http.rounds, hub.rounds);
  if (!Number.isFinite(value)) return NOT_MEASURED;
  return verdict(
    `${ratio(value)} (${ms(http.median.p50)} vs ${ms(hub.median.p50)} ms)`,
    value <= 0.8,
  );
}

/** calls/s of `coffer` over `other`'s, at 16 sessions (or the nearest level measured). */
function httpRateOver(
  run: UpstreamRun,
  other: TargetId,
  wanted: number,
  coffer: TargetId = 'coffer-http',
): TargetCell {
  const sessions = comparedLevel(run.throughput ?? []);
  const http = levelOf(run.throughput, coffer, sessions);
  const base = levelOf(run.throughput, other, sessions);
  if (http === undefined || base === undefined) return NOT_MEASURED;
  return rateCell(http.callsPerSecond, base.callsPerSecond, sessions, wanted);
}

/** One calls/s ratio against its target, naming the level when it is not 16 sessions. */
function rateCell(mine: number, base: number, sessions: number, wanted: number): TargetCell {
  const value = mine / base;
  if (!Number.isFinite(value)) return NOT_MEASURED;
  const at = sessions === 16 ? '' : `, at ${sessions} session${sessions === 1 ? '' : 's'}`;
  return verdict(`${ratio(value)} (${count(mine)} vs ${count(base)}${at})`, value >= wanted);
}

function httpRateVsHub(run: UpstreamRun): TargetCell {
  return hubMissing(run) ?? httpRateOver(run, 'mcp-hub', 1.2);
}

function sharedRateVsHub(run: UpstreamRun): TargetCell {
  return hubMissing(run) ?? httpRateOver(run, 'mcp-hub', 1.2, 'coffer-http-shared');
}

function httpRateVsStdio(run: UpstreamRun): TargetCell {
  return httpRateOver(run, 'direct-stdio', 0.5);
}

/** calls/s of `coffer` over `other`'s in the capacity section (raw load generator). */
function capacityRateOver(
  run: UpstreamRun,
  coffer: TargetId,
  other: TargetId,
  wanted: number,
): TargetCell {
  const found = (id: TargetId) =>
    run.capacity?.find((r) => r.target === id && r.failure === undefined && r.calls > 0);
  const mine = found(coffer);
  const base = found(other);
  if (mine === undefined || base === undefined) return NOT_MEASURED;
  return rateCell(mine.callsPerSecond, base.callsPerSecond, mine.sessions, wanted);
}

/** Both daemons (the one behind /mcp, the one behind the shim), one session each. */
function daemonCpu(run: UpstreamRun): TargetCell {
  const http = latencyOf(run, 'coffer-http')?.cpu.relayUs ?? Number.NaN;
  const shim = latencyOf(run, 'coffer-shim')?.cpu.relayUs ?? Number.NaN;
  const measured = [http, shim].filter(Number.isFinite);
  if (measured.length === 0) return NOT_MEASURED;
  const show = (us: number): string => (Number.isFinite(us) ? `${ms(us / 1000)} ms` : '—');
  // Beside it, what the same daemon spends per call from a raw client (capacity section):
  // one session alone, and 16 at once, where per-call wake-ups are shared. The verdict
  // stays with the SDK client's sequential calls.
  const loaded = run.capacity?.find((r) => r.target === 'coffer-http' && r.failure === undefined);
  const beside = (label: string, us: number | undefined): string =>
    us !== undefined && Number.isFinite(us) ? `; /mcp ${label} ${show(us)}` : '';
  const detail =
    `/mcp ${show(http)}, shim ${show(shim)}` +
    beside('paced by a raw client', loaded?.oneSession.relayUs) +
    beside(`at ${loaded?.sessions} sessions`, loaded?.relayUs);
  return verdict(detail, Math.max(...measured) <= 250);
}

/** What the warm listing's cell shows beside its round trip (each figure when measured). */
function warmContext(fanOut: FanOutResult): string {
  const parts = [
    ...(fanOut.warmCpu === undefined ? [] : [`daemon CPU ${ms(fanOut.warmCpu.daemonMs)} ms`]),
    ...(fanOut.warmBeside === undefined
      ? []
      : [
          `raw client ${ms(fanOut.warmBeside.raw.p50)} ms`,
          ...(fanOut.warmBeside.parse === undefined
            ? []
            : [`JSON.parse of the answer alone ${ms(fanOut.warmBeside.parse.p50)} ms`]),
          `one direct server of ${fanOut.warmBeside.directTools} tools ${ms(fanOut.warmBeside.direct.p50)} ms`,
        ]),
  ];
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`;
}
