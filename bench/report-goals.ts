/**
 * The targets of issue 10 beside what this run measured (fixture `echo` run). Reported, never
 * asserted: "met" / "missed" is information for the reader, not an exit code.
 */
import { mb, ms, ratio, table } from './format.js';
import type { TargetLatency } from './latency.js';
import type { BenchResults } from './results.js';
import type { TargetId } from './targets.js';

interface Goal {
  readonly goal: string;
  readonly measured: string;
  /** undefined when this run did not measure it. */
  readonly met: boolean | undefined;
}

export function goalsTable(results: BenchResults): string {
  const goals = [...latencyGoals(results), throughputGoal(results), ...otherGoals(results)];
  const rows = goals.map((g) => [
    g.goal,
    g.measured,
    g.met === undefined ? 'not measured' : g.met ? 'met' : '**missed**',
  ]);
  return [
    '### Targets (issue 10) vs this run — fixture `echo`, ratios to direct stdio in the same run',
    table(['target', 'measured', ''], rows),
  ].join('\n\n');
}

function latencyOf(results: BenchResults, target: TargetId): TargetLatency | undefined {
  const run = results.runs.find((r) => r.upstream === 'fixture');
  const found = run?.latency?.find((r) => r.target === target);
  return found?.failure === undefined ? found : undefined;
}

function latencyGoals(results: BenchResults): Goal[] {
  const shim = latencyOf(results, 'coffer-shim');
  const http = latencyOf(results, 'coffer-http');
  const tail = (r: TargetLatency | undefined) =>
    r === undefined ? NaN : r.median.p99 / r.median.p50;
  return [
    check('through the shim: p50 ≤ 2.5× direct stdio', shim?.ratioP50, (v) => v <= 2.5, ratio),
    check(
      'through /mcp over HTTP: p50 ≤ 3.5× direct stdio',
      http?.ratioP50,
      (v) => v <= 3.5,
      ratio,
    ),
    check('/mcp: p99 ≤ 3× its own p50', tail(http), (v) => v <= 3, ratio),
    check('shim: p99 ≤ 3× its own p50', tail(shim), (v) => v <= 3, ratio),
  ];
}

/** 16 sessions when measured (full run), else the nearest level measured. */
function throughputGoal(results: BenchResults): Goal {
  const run = results.runs.find((r) => r.upstream === 'fixture');
  const levels = ['coffer-http', 'coffer-shim'].map((id) => ({
    id,
    levels: run?.throughput?.find((r) => r.target === id)?.levels ?? [],
  }));
  const all = levels.flatMap((entry) => entry.levels.map((level) => level.sessions));
  const sessions = all.includes(16) ? 16 : nearest(all, 16);
  const ratios = levels.map((entry) => ({
    id: entry.id,
    value: entry.levels.find((level) => level.sessions === sessions)?.ratioToStdio ?? NaN,
  }));
  const measured = ratios.map(
    (r) => `${r.id === 'coffer-http' ? '/mcp' : 'shim'} ${ratio(r.value)}`,
  );
  const finite = ratios.map((r) => r.value).filter(Number.isFinite);
  const suffix = sessions === 16 || !Number.isFinite(sessions) ? '' : ` (${sessions} measured)`;
  return {
    goal: `throughput with 16 sessions ≥ 0.70× direct stdio${suffix}`,
    measured: finite.length === 0 ? '—' : measured.join(', '),
    met: finite.length === 0 ? undefined : finite.every((v) => v >= 0.7),
  };
}

function otherGoals(results: BenchResults): Goal[] {
  const { fanOut, startup, memory } = results;
  return [
    check(
      `warm tools/list over ${fanOut?.servers ?? 20} × ${fanOut?.toolsPerServer ?? 50} tools ≤ 2 ms p50`,
      fanOut?.warm.p50,
      (v) => v <= 2,
      msText,
    ),
    check('cold tools/list ≤ slowest upstream + 20 ms', fanOut?.cold.addedMs, (v) => v <= 20, plus),
    check(
      'cold, one slow upstream ≤ slowest + 20 ms',
      fanOut?.coldSlow.addedMs,
      (v) => v <= 20,
      plus,
    ),
    check(
      'shim start → initialize ≤ 150 ms, daemon running',
      startup?.shimDaemonRunning.ms,
      (v) => v <= 150,
      msText,
    ),
    check('daemon idle RSS ≤ 80 MB', memory?.idleMb, (v) => v <= 80, mb),
    check('≤ 2 MB per extra session', memory?.perExtraSessionMb, (v) => v <= 2, mb),
  ];
}

function check(
  goal: string,
  value: number | undefined,
  ok: (value: number) => boolean,
  show: (value: number) => string,
): Goal {
  if (value === undefined || !Number.isFinite(value))
    return { goal, measured: '—', met: undefined };
  return { goal, measured: show(value), met: ok(value) };
}

const msText = (value: number): string => `${ms(value)} ms`;
const plus = (value: number): string => `${value >= 0 ? '+' : '−'}${ms(Math.abs(value), 0)} ms`;

function nearest(values: readonly number[], wanted: number): number {
  let best = Number.NaN;
  for (const value of values) {
    if (!(Math.abs(value - wanted) >= Math.abs(best - wanted))) best = value;
  }
  return best;
}
