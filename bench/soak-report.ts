/**
 * The soak run's figures and how they are judged: RSS samples over time, a table row every
 * ~30 s, and a plateau verdict from the slope of the second half (least squares, MB/min).
 */
import { count, mb, ms, signed, table } from './format.js';
import type { Machine } from './machine.js';
import type { Percentiles } from './stats.js';

export interface RssSample {
  /** Seconds since the load started. */
  readonly t: number;
  readonly rssMb: number;
}

export interface SoakRow {
  readonly t: number;
  readonly rssMb: number;
  readonly calls: number;
  readonly callsPerS: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly load1: number;
}

export interface SoakResults {
  readonly command: string;
  readonly startedAt: string;
  readonly machine: Machine;
  readonly minutes: number;
  readonly sessions: number;
  readonly churnSeconds: number;
  calls: number;
  errors: number;
  errorSamples: string[];
  sessionsOpened: number;
  latency?: Percentiles;
  idleRssMb?: number;
  rows: SoakRow[];
  samples: RssSample[];
  plateau?: Plateau;
  /** Upstream processes still children of the daemon after every session was closed. */
  leftoverUpstreams?: number;
  durationS?: number;
}

export interface Plateau {
  readonly startMb: number;
  readonly endMb: number;
  readonly peakMb: number;
  /** Least-squares slopes of every sample, first and second half (GC sawtooth included). */
  readonly firstHalfSlopeMbPerMin: number;
  readonly secondHalfSlopeMbPerMin: number;
  /** The same over the floor: each 30 s window's lowest sample, what survives a GC. */
  readonly floorSecondHalfSlopeMbPerMin: number;
  /**
   * Undefined when the second half has fewer than two floors (a run under about two
   * minutes): no slope, so no verdict, rather than a plateau claimed on no evidence.
   */
  readonly plateaued: boolean | undefined;
}

/** Floor growth under this in the second half counts as flat: noise, not a leak. */
export const PLATEAU_MB_PER_MIN = 1;
const FLOOR_WINDOW_S = 30;

/** Least-squares slope of RSS over time, in MB per minute. */
export function slopeMbPerMin(samples: readonly RssSample[]): number {
  if (samples.length < 2) return Number.NaN;
  const n = samples.length;
  const meanT = samples.reduce((sum, s) => sum + s.t, 0) / n;
  const meanR = samples.reduce((sum, s) => sum + s.rssMb, 0) / n;
  let num = 0;
  let den = 0;
  for (const s of samples) {
    num += (s.t - meanT) * (s.rssMb - meanR);
    den += (s.t - meanT) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 60;
}

/** Each window's lowest sample: RSS swings by tens of MB between collections; a leak lifts the floor. */
export function floors(samples: readonly RssSample[]): RssSample[] {
  const windows = new Map<number, RssSample>();
  for (const sample of samples) {
    const key = Math.floor(sample.t / FLOOR_WINDOW_S);
    const low = windows.get(key);
    if (low === undefined || sample.rssMb < low.rssMb) windows.set(key, sample);
  }
  return [...windows.values()];
}

export function judgePlateau(samples: readonly RssSample[]): Plateau | undefined {
  if (samples.length < 4) return undefined;
  const half = Math.floor(samples.length / 2);
  const secondHalf = samples.slice(half);
  const floorSlope = slopeMbPerMin(floors(secondHalf));
  return {
    startMb: samples[0]!.rssMb,
    endMb: samples.at(-1)!.rssMb,
    peakMb: Math.max(...samples.map((s) => s.rssMb)),
    firstHalfSlopeMbPerMin: slopeMbPerMin(samples.slice(0, half)),
    secondHalfSlopeMbPerMin: slopeMbPerMin(secondHalf),
    floorSecondHalfSlopeMbPerMin: floorSlope,
    plateaued: Number.isNaN(floorSlope) ? undefined : floorSlope < PLATEAU_MB_PER_MIN,
  };
}

function verdict({ plateaued }: Plateau): string {
  if (plateaued === undefined)
    return `**Too short to judge** (the second half needs two ${FLOOR_WINDOW_S} s floors: run 2 minutes or more).`;
  return (
    `**${plateaued ? 'Plateau' : 'No plateau'}** ` +
    `(floor growth ${plateaued ? 'under' : 'at or over'} ${PLATEAU_MB_PER_MIN} MB/min).`
  );
}

export function renderSoak(results: SoakResults): string {
  const { machine, plateau, latency } = results;
  const lines = [
    `## Soak: ${results.sessions} sessions on /mcp for ${results.minutes} min`,
    '',
    `${results.command} — ${results.startedAt}; ${machine.nproc} CPUs (${machine.cpuModel}), ` +
      `Node ${machine.node}, load at start ${machine.loadAtStart.join(' ')}.`,
    `Each session calls the fixture's \`echo\` in a closed loop` +
      (results.churnSeconds > 0
        ? `; each is closed (DELETE) and replaced every ${results.churnSeconds} s.`
        : '.'),
    '',
    table(
      ['calls', 'errors', 'p50 ms', 'p90 ms', 'p99 ms', 'sessions opened', 'upstreams left'],
      [
        [
          count(results.calls),
          count(results.errors),
          ms(latency?.p50),
          ms(latency?.p90),
          ms(latency?.p99),
          count(results.sessionsOpened),
          count(results.leftoverUpstreams),
        ],
      ],
    ),
    '',
    '### Daemon RSS over time',
    '',
    table(
      ['t (s)', 'RSS', 'calls', 'calls/s', 'p99 ms', 'errors', 'load'],
      results.rows.map((row) => [
        String(Math.round(row.t)),
        mb(row.rssMb),
        count(row.calls),
        count(row.callsPerS),
        ms(row.p99Ms),
        count(row.errors),
        row.load1.toFixed(2),
      ]),
    ),
    '',
  ];
  if (plateau !== undefined) {
    lines.push(
      `RSS: idle ${mb(results.idleRssMb)}, start of load ${mb(plateau.startMb)}, ` +
        `end ${mb(plateau.endMb)}, peak ${mb(plateau.peakMb)}. Slope of all samples: first half ` +
        `${signed(plateau.firstHalfSlopeMbPerMin)} MB/min, second half ` +
        `${signed(plateau.secondHalfSlopeMbPerMin)} MB/min; of the ${FLOOR_WINDOW_S} s floors ` +
        `in the second half ${signed(plateau.floorSecondHalfSlopeMbPerMin)} MB/min. ` +
        verdict(plateau),
    );
  }
  if (results.errorSamples.length > 0) {
    lines.push('', 'First errors:', ...results.errorSamples.map((error) => `- ${error}`));
  }
  return `${lines.join('\n')}\n`;
}
