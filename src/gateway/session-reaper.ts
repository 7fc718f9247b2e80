import type { ReapLimits, ReapReason, SessionActivity } from './session-activity.js';

/** What the reaper watches: anything with a session's activity. */
export interface Reapable {
  readonly activity: SessionActivity;
}

/** A repeating timer; the result cancels it. Tests pass one they drive by hand. */
export type Every = (ms: number, tick: () => void) => () => void;

export interface ReaperOptions<T extends Reapable> extends ReapLimits {
  /** Closes a session the reaper gave up on (with its upstreams). */
  readonly reap: (target: T, reason: ReapReason) => void;
  readonly every?: Every;
  /**
   * Sessions kept at most: one more closes the one quiet longest ('crowded'). Clients that
   * open sessions and never end them would otherwise grow the daemon for half an hour each.
   */
  readonly maxSessions?: number;
}

/** Bounds of the sweep period: often enough to honour short limits, rarely enough to be free. */
const MIN_SWEEP_MS = 50;
const MAX_SWEEP_MS = 30_000;

/**
 * Closes downstream sessions whose client vanished or that sat idle past the limit,
 * so their upstream processes end (issue #5: a client that opens sessions and never
 * closes them must not pile up children). Sweeps periodically while it has sessions to
 * watch; the timer never keeps the daemon alive.
 */
export class SessionReaper<T extends Reapable> {
  private readonly targets = new Set<T>();
  private cancel: (() => void) | undefined;
  private readonly every: Every;

  constructor(private readonly options: ReaperOptions<T>) {
    this.every = options.every ?? unrefInterval;
  }

  /** The sweep period: a quarter of the shorter limit, so a session outlives it by 25% at most. */
  get sweepMs(): number {
    const shorter = Math.min(this.options.idleMs, this.options.graceMs);
    return Math.min(MAX_SWEEP_MS, Math.max(MIN_SWEEP_MS, Math.floor(shorter / 4)));
  }

  get size(): number {
    return this.targets.size;
  }

  track(target: T): void {
    this.targets.add(target);
    this.cancel ??= this.every(this.sweepMs, () => this.sweep());
    const max = this.options.maxSessions;
    if (max !== undefined && this.targets.size > max) this.crowdOut(target);
  }

  /** Closes the session quiet longest, never one with a request in flight, nor `newest`. */
  private crowdOut(newest: T): void {
    let quietest: T | undefined;
    let longest = -1;
    for (const target of this.targets) {
      const quiet = target === newest ? undefined : target.activity.quietMs();
      if (quiet !== undefined && quiet > longest) [quietest, longest] = [target, quiet];
    }
    if (quietest === undefined) return;
    this.targets.delete(quietest);
    this.options.reap(quietest, 'crowded');
  }

  untrack(target: T): void {
    this.targets.delete(target);
    if (this.targets.size === 0) this.stop();
  }

  /** Reaps every session due now; returns them. */
  sweep(): T[] {
    const reaped: T[] = [];
    for (const target of this.targets) {
      const reason = target.activity.verdict(this.options);
      if (reason === undefined) continue;
      this.targets.delete(target);
      reaped.push(target);
      this.options.reap(target, reason);
    }
    if (this.targets.size === 0) this.stop();
    return reaped;
  }

  stop(): void {
    this.cancel?.();
    this.cancel = undefined;
  }
}

function unrefInterval(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}
