import { CofferError } from '../domain/errors.js';
import type { ActivityEntry, ActivityRepository, ActivitySink, Clock } from '../domain/ports.js';
import type { Logger } from '../observability/logger.js';

/** How much activity is kept: rows past EITHER limit are deleted. */
export interface ActivityRetention {
  readonly maxAgeMs: number;
  readonly maxRows: number;
}

export interface ActivitySettings {
  readonly retention: ActivityRetention;
  /** How often retention is enforced after the start. */
  readonly pruneIntervalMs: number;
}

const DAY_MS = 86_400_000;
export const DEFAULT_ACTIVITY_SETTINGS: ActivitySettings = {
  retention: { maxAgeMs: 30 * DAY_MS, maxRows: 100_000 },
  pruneIntervalMs: 3_600_000,
};

function positiveNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  integer: boolean,
): number | undefined {
  const text = env[name];
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new CofferError(
      'INVALID_INPUT',
      `${name} must be a positive ${integer ? 'whole number' : 'number'}, not "${text}"`,
    );
  }
  return value;
}

/**
 * `COFFER_ACTIVITY_MAX_AGE_DAYS` (default 30, fractions allowed), `COFFER_ACTIVITY_MAX_ROWS`
 * (default 100000), `COFFER_ACTIVITY_PRUNE_INTERVAL_MS` (default 1 h). A bad value stops
 * the daemon at start with a message rather than silently keeping everything.
 */
export function activitySettingsFromEnv(env: NodeJS.ProcessEnv = process.env): ActivitySettings {
  const days = positiveNumber(env, 'COFFER_ACTIVITY_MAX_AGE_DAYS', false);
  const rows = positiveNumber(env, 'COFFER_ACTIVITY_MAX_ROWS', true);
  const interval = positiveNumber(env, 'COFFER_ACTIVITY_PRUNE_INTERVAL_MS', true);
  const defaults = DEFAULT_ACTIVITY_SETTINGS;
  return {
    retention: {
      maxAgeMs: days === undefined ? defaults.retention.maxAgeMs : days * DAY_MS,
      maxRows: rows ?? defaults.retention.maxRows,
    },
    pruneIntervalMs: interval ?? defaults.pruneIntervalMs,
  };
}

/**
 * The activity log's read side as of every entry recorded so far: a query first waits for
 * the queue to be written. Without it, an entry recorded just before a page loads is in
 * neither place that page looks: not yet in the store its load reads, and already past
 * the live event stream it subscribes to after.
 */
export function readYourWrites(
  writer: Pick<ActivityWriter, 'flush'>,
  repository: ActivityRepository,
): ActivityRepository {
  return {
    append: (entries) => repository.append(entries),
    prune: (olderThan, keepRows) => repository.prune(olderThan, keepRows),
    query: async (query) => {
      await writer.flush();
      return repository.query(query);
    },
  };
}

export interface ActivityWriterOptions extends ActivitySettings {
  readonly repository: Pick<ActivityRepository, 'append' | 'prune'>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Entries wait at most this long before they are written. Default 250 ms. */
  readonly flushDelayMs?: number;
  /** Entries per INSERT transaction; a full batch is written at once. Default 500. */
  readonly batchSize?: number;
  /** Bound on entries waiting while the store fails; the oldest are dropped. Default 10000. */
  readonly maxQueued?: number;
}

/**
 * The daemon's ActivitySink. `record` only queues (its log line follows on the next turn
 * of the event loop): the request never waits for SQLite, and a failing store never
 * fails a call. Batches are written one transaction at a time, in order; a failed batch
 * is retried on the next flush, and only a store that stays down long enough loses (the
 * oldest) entries.
 */
export class ActivityWriter implements ActivitySink {
  private queue: ActivityEntry[] = [];
  private unlogged: ActivityEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private dropped = 0;
  private failing = false;
  private closed = false;

  /**
   * The per-call line holds only the scalar fields below, none of them secret, so it
   * skips the logger's path redaction: its wildcard walk was a visible share of the
   * daemon's CPU per relayed call.
   */
  private readonly callLog: Logger;

  constructor(private readonly options: ActivityWriterOptions) {
    this.callLog = options.logger.child({}, { redact: [] });
  }

  record(entry: ActivityEntry): void {
    try {
      if (this.closed) return;
      this.logSoon(entry);
      if (this.queue.length >= (this.options.maxQueued ?? 10_000)) {
        this.queue.shift();
        this.dropped++;
      }
      this.queue.push(entry);
      if (this.queue.length >= this.batchSize) void this.flush();
      else this.schedule();
    } catch {
      // Recording is best effort by contract: nothing here may reach the caller.
    }
  }

  /** Enforces retention now, then every `pruneIntervalMs`. */
  async start(): Promise<void> {
    await this.prune();
    this.pruneTimer = setInterval(() => void this.prune(), this.options.pruneIntervalMs);
    this.pruneTimer.unref();
  }

  /** Writes everything queued so far; resolves when it is in the store (or failed). */
  flush(): Promise<void> {
    this.chain = this.chain.then(() => this.drain());
    return this.chain;
  }

  /** Deletes rows past either limit, as of the injected clock. Returns rows deleted. */
  async prune(): Promise<number> {
    const { retention, clock, repository, logger } = this.options;
    const cutoff = new Date(clock.now().getTime() - retention.maxAgeMs).toISOString();
    try {
      const deleted = await repository.prune(cutoff, retention.maxRows);
      if (deleted > 0)
        logger.info({ deleted, cutoff, maxRows: retention.maxRows }, 'activity pruned');
      return deleted;
    } catch (error) {
      logger.error({ err: error }, 'activity retention failed');
      return 0;
    }
  }

  /** Shutdown: no new entries, everything queued written. */
  async close(): Promise<void> {
    this.logPending();
    clearInterval(this.pruneTimer);
    await this.flush();
    this.closed = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => void this.flush(), this.options.flushDelayMs ?? 250);
    this.timer.unref();
  }

  private get batchSize(): number {
    return this.options.batchSize ?? 500;
  }

  private async drain(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.batchSize);
      try {
        await this.options.repository.append(batch);
        this.recovered();
      } catch (error) {
        this.queue.unshift(...batch);
        this.failed(error);
        return;
      }
    }
  }

  private failed(error: unknown): void {
    if (!this.failing)
      this.options.logger.error({ err: error }, 'activity could not be written; will retry');
    this.failing = true;
    if (!this.closed) this.schedule();
  }

  private recovered(): void {
    if (!this.failing && this.dropped === 0) return;
    this.options.logger.warn({ dropped: this.dropped }, 'activity writing recovered');
    this.failing = false;
    this.dropped = 0;
  }

  /**
   * The line is written once the caller has answered (next turn of the event loop):
   * formatting it costs 10–20 µs that a relayed call's answer need not wait for.
   */
  private logSoon(entry: ActivityEntry): void {
    this.unlogged.push(entry);
    if (this.unlogged.length === 1) setImmediate(() => this.logPending());
  }

  private logPending(): void {
    const entries = this.unlogged;
    this.unlogged = [];
    try {
      for (const entry of entries) this.logEntry(entry);
    } catch {
      // Best effort, as record is: a log that cannot write must not end the daemon.
    }
  }

  /** The log line carries the entry's traceId (as every line in a request does). */
  private logEntry(entry: ActivityEntry): void {
    // `at` is the line's own time; trace_id becomes the usual `traceId` field.
    const fields = {
      session_id: entry.session_id,
      client_name: entry.client_name,
      client_version: entry.client_version,
      action: entry.action,
      server: entry.server,
      capability_type: entry.capability_type,
      capability_key: entry.capability_key,
      duration_ms: entry.duration_ms,
      outcome: entry.outcome,
      error_code: entry.error_code,
      ...(entry.guard == null ? {} : { guard: entry.guard }),
    };
    const target = [entry.server, entry.capability_key].filter((part) => part !== null).join(' ');
    const outcome = entry.outcome === 'ok' ? 'ok' : `error ${entry.error_code ?? ''}`.trim();
    this.callLog.info(
      { ...(entry.trace_id === null ? {} : { traceId: entry.trace_id }), activity: fields },
      `${entry.action} ${target}: ${outcome}`,
    );
  }
}
