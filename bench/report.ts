/** The markdown report printed on stdout (and kept in docs/PERFORMANCE.md). */
import type { FanOutResult } from './fan-out.js';
import { count, mb, ms, ratio, signed, table } from './format.js';
import type { MemoryResult } from './memory.js';
import { capacitySection } from './report-capacity.js';
import { sideBySideSection } from './report-side-by-side.js';
import { targetsSection } from './report-targets.js';
import type { BenchResults } from './results.js';
import type { StartupResult } from './startup.js';
import type { UpstreamRun } from './suite.js';
import { TARGET_LABELS } from './targets.js';

export function renderReport(results: BenchResults): string {
  const { machine } = results;
  const parts = [
    `## Coffer bench (${results.mode})`,
    [
      `- command: \`${results.command}\` · ${results.startedAt} · ${results.durationS ?? '?'} s`,
      `- machine: ${machine.nproc} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}, ${machine.platform}`,
      `- load average (1/5/15 min): ${machine.loadAtStart.join(' / ')} at start, ${(results.loadAtEnd ?? []).join(' / ')} at end`,
      `- sections (seconds; 1-min load when each ended): ${results.timeline.map((t) => `${t.section} ${t.seconds} s (${t.load1})`).join(', ')}`,
    ].join('\n'),
    ...results.runs.flatMap((run) => [
      sideBySideSection(run),
      latencySection(run),
      throughputSection(run),
      capacitySection(run),
    ]),
    results.fanOut === undefined ? '' : fanOutSection(results.fanOut),
    results.startup === undefined ? '' : startupSection(results.startup),
    results.memory === undefined ? '' : memorySection(results.memory),
    results.fanOut === undefined ? '' : searchSection(results.fanOut),
    targetsSection(results),
    results.failures.length === 0
      ? ''
      : `### Failures\n\n${results.failures.map((f) => `- ${f.section}: ${f.message}`).join('\n')}`,
  ];
  return `${parts.filter((part) => part !== '').join('\n\n')}\n`;
}

function latencySection(run: UpstreamRun): string {
  if (run.latency === undefined) return '';
  const rounds = run.latency[0]?.rounds.length ?? 0;
  const calls = run.latency[0]?.calls ?? 0;
  const rows = run.latency.map((r) => [
    TARGET_LABELS[r.target],
    ms(r.median.p50),
    ms(r.median.p90),
    ms(r.median.p99),
    ratio(r.median.p99 / r.median.p50),
    r.target === 'direct-stdio' ? '—' : signed(r.addedP50Ms),
    ratio(r.ratioP50),
    r.failure === undefined ? String(r.errors) : 'could not run',
  ]);
  return [
    `### tools/call latency — ${run.label} (${calls} sequential calls per target in ${rounds} interleaved rounds; ms, median across rounds)`,
    table(
      [
        'target',
        'p50',
        'p90',
        'p99',
        'p99/p50',
        'added p50 vs direct stdio',
        'p50 × direct stdio',
        'errors',
      ],
      rows,
    ),
  ].join('\n\n');
}

function throughputSection(run: UpstreamRun): string {
  if (run.throughput === undefined) return '';
  const levels = run.throughput[0]?.levels.map((level) => level.sessions) ?? [];
  const rows = run.throughput.map((r) => [
    TARGET_LABELS[r.target],
    ...levels.map((sessions) => {
      const level = r.levels.find((l) => l.sessions === sessions);
      if (level === undefined) return r.failure === undefined ? '—' : 'could not run';
      const errors = level.errors > 0 ? `, ${level.errors} errors` : '';
      return `${count(level.callsPerSecond)} (${ratio(level.ratioToStdio)}${errors})`;
    }),
  ]);
  return [
    `### Throughput — ${run.label} (calls/s, median across rounds; × direct stdio at the same level)`,
    table(['target', ...levels.map((n) => `${n} session${n === 1 ? '' : 's'}`)], rows),
  ].join('\n\n');
}

function fanOutSection(fanOut: FanOutResult): string {
  const rows = [
    ...warmRows(fanOut),
    ...(fanOut.warmCpu === undefined
      ? []
      : [
          [
            'warm: CPU per listing, daemon / bench client',
            `${ms(fanOut.warmCpu.daemonMs)} / ${ms(fanOut.warmCpu.clientMs)}`,
            '—',
            '—',
          ],
        ]),
    [
      'cold: new session, initialize + first tools/list (direct: the slowest upstream, spawn → list)',
      ms(fanOut.cold.cofferMs, 0),
      ms(fanOut.cold.directSlowestMs, 0),
      signed(fanOut.cold.addedMs),
    ],
    [
      `cold, one upstream ${fanOut.slowInitMs / 1000} s slow to start`,
      ms(fanOut.coldSlow.cofferMs, 0),
      ms(fanOut.coldSlow.directSlowestMs, 0),
      signed(fanOut.coldSlow.addedMs),
    ],
  ];
  return [
    `### tools/list over ${fanOut.servers} upstreams × ${fanOut.toolsPerServer} tools (${fanOut.tools} tools listed; ms)`,
    table(['figure', 'Coffer /mcp', 'direct', 'added'], rows),
  ].join('\n\n');
}

/** The warm listing, beside one server of every tool listed directly and a raw client's read. */
function warmRows(fanOut: FanOutResult): string[][] {
  const { warm, warmBeside } = fanOut;
  const pair = (p: { p50: number; p90: number }) => `${ms(p.p50)} / ${ms(p.p90)}`;
  if (warmBeside === undefined) return [['warm (cached), p50 / p90', pair(warm), '—', '—']];
  return [
    [
      `warm (cached), p50 / p90 (direct: one server of all ${warmBeside.directTools} tools, same SDK client)`,
      pair(warm),
      pair(warmBeside.direct),
      signed(warm.p50 - warmBeside.direct.p50),
    ],
    [
      'warm, raw HTTP client (to the last byte, nothing parsed), p50 / p90',
      pair(warmBeside.raw),
      '—',
      '—',
    ],
    ...(warmBeside.parse === undefined
      ? []
      : [
          [
            "warm: `JSON.parse` of that answer alone (any client's floor), p50 / p90",
            pair(warmBeside.parse),
            '—',
            '—',
          ],
        ]),
  ];
}

function startupSection(startup: StartupResult): string {
  const row = (label: string, figure: StartupResult['fixtureStdio']) => [
    label,
    ms(figure.ms, 0),
    String(figure.samples.length),
  ];
  return [
    '### Start-up: spawn → initialize result (ms, median)',
    table(
      ['figure', 'ms', 'runs'],
      [
        row('`coffer shim`, daemon running', startup.shimDaemonRunning),
        row('`coffer shim`, daemon not running (the shim starts it)', startup.shimDaemonNotRunning),
        row('fixture MCP server over stdio (reference)', startup.fixtureStdio),
        row('bare `node -e` answering one line (floor of any Node process)', startup.bareNode),
      ],
    ),
  ].join('\n\n');
}

function memorySection(memory: MemoryResult): string {
  return [
    '### Daemon memory (VmRSS of the daemon process only; upstream processes excluded)',
    table(
      ['figure', 'value'],
      [
        ['idle (one server registered, no session)', mb(memory.idleMb)],
        ['with 1 session (one tools/call made)', mb(memory.oneSessionMb)],
        [`with ${memory.sessions} sessions`, mb(memory.allSessionsMb)],
        ['per extra session', mb(memory.perExtraSessionMb)],
        ['upstream processes per session', memory.upstreamProcessesPerSession.toFixed(2)],
      ],
    ),
  ].join('\n\n');
}

function searchSection(fanOut: FanOutResult): string {
  const { search } = fanOut;
  if (search.skipped) return `### coffer__search_tools\n\nSkipped: ${search.note}.`;
  return [
    `### coffer__search_tools over ${fanOut.tools} tools (tools/call round trip through /mcp, ms)`,
    table(
      ['queries', 'p50', 'p90', 'p99', 'errors'],
      [
        [
          String(search.queries),
          ms(search.latency.p50),
          ms(search.latency.p90),
          ms(search.latency.p99),
          String(search.errors),
        ],
      ],
    ),
  ].join('\n\n');
}
