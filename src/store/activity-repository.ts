import { sql, type Kysely } from 'kysely';
import type { ActivityEntry, ActivityQuery, ActivityRepository, Clock } from '../domain/ports.js';
import { prepareActivityInsert, type InsertBatch } from './activity-insert.js';
import type { Store } from './database.js';
import type { ActivityRow, Database } from './schema.js';
import { guarded } from './sqlite-errors.js';

/** A page is never larger than this, whatever the caller asks: the UI pages backwards. */
export const MAX_ACTIVITY_PAGE = 1000;
export const DEFAULT_ACTIVITY_PAGE = 100;

export interface ActivityRetention {
  /** Rows older than this are deleted. */
  readonly maxAgeMs: number;
  /** Beyond this many rows, the oldest are deleted. */
  readonly maxRows: number;
}

function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_ACTIVITY_PAGE;
  return Math.min(MAX_ACTIVITY_PAGE, Math.max(1, Math.floor(limit)));
}

function toEntry(row: ActivityRow): ActivityEntry & { id: number } {
  return {
    id: row.id,
    at: row.at,
    trace_id: row.trace_id,
    session_id: row.session_id,
    client_name: row.client_name,
    client_version: row.client_version,
    server: row.server,
    capability_type: row.capability_type,
    capability_key: row.capability_key,
    action: row.action,
    duration_ms: row.duration_ms,
    outcome: row.outcome,
    error_code: row.error_code,
    guard: row.guard,
  };
}

/**
 * The audit / activity log. Order is insertion order (id): entries are appended in
 * batches as they complete, so `at` is close to, but not strictly, monotonic.
 */
export class SqliteActivityRepository implements ActivityRepository {
  private readonly db: Kysely<Database>;
  /** Prepared on the first append, on the store's one connection. */
  private insert: InsertBatch | undefined;

  constructor(
    private readonly store: Pick<Store, 'db' | 'withConnection'>,
    private readonly clock: Clock,
  ) {
    this.db = store.db;
  }

  /**
   * All or nothing: a batch is one transaction (and one fsync under WAL). The one write
   * per relayed call, so it skips kysely for a prepared statement (activity-insert.ts).
   */
  append(entries: readonly ActivityEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    return guarded({}, () =>
      this.store.withConnection((connection) => {
        this.insert ??= prepareActivityInsert(connection);
        this.insert(entries);
      }),
    );
  }

  /** Newest first; `before_id` continues from the last id of the previous page. */
  query(query: ActivityQuery): Promise<(ActivityEntry & { id: number })[]> {
    return guarded({}, async () => {
      let select = this.db.selectFrom('activity').selectAll();
      if (query.server !== undefined) select = select.where('server', '=', query.server);
      if (query.since !== undefined) select = select.where('at', '>=', query.since);
      if (query.outcome !== undefined) select = select.where('outcome', '=', query.outcome);
      if (query.guard === 'any') select = select.where('guard', 'is not', null);
      else if (query.guard !== undefined)
        select = select.where(sql<string>`',' || guard || ','`, 'like', `%,${query.guard},%`);
      if (query.before_id !== undefined) select = select.where('id', '<', query.before_id);
      const rows = await select.orderBy('id', 'desc').limit(pageSize(query.limit)).execute();
      return rows.map(toEntry);
    });
  }

  /**
   * Both limits apply: first by age (ISO strings of one format compare as times), then
   * everything but the newest `keepRows`. One transaction, so readers never see half.
   */
  prune(olderThan: string, keepRows: number): Promise<number> {
    const keep = Math.max(0, Math.floor(keepRows));
    return guarded({}, () =>
      this.db.transaction().execute(async (trx) => {
        const byAge = await trx
          .deleteFrom('activity')
          .where('at', '<', olderThan)
          .executeTakeFirst();
        // The id of the oldest row to keep; NULL (nothing deleted) when fewer rows exist.
        const oldestKept = trx
          .selectFrom('activity')
          .select('id')
          .orderBy('id', 'desc')
          .limit(1)
          .offset(Math.max(0, keep - 1));
        const byCount =
          keep === 0
            ? await trx.deleteFrom('activity').executeTakeFirst()
            : await trx.deleteFrom('activity').where('id', '<', oldestKept).executeTakeFirst();
        return Number(byAge.numDeletedRows + byCount.numDeletedRows);
      }),
    );
  }

  /** `prune` with the cut-off computed from the injected clock. */
  pruneRetention(retention: ActivityRetention): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - retention.maxAgeMs).toISOString();
    return this.prune(cutoff, retention.maxRows);
  }

  /** Rows currently kept, for status pages and tests. */
  count(): Promise<number> {
    return guarded({}, async () => {
      const row = await this.db
        .selectFrom('activity')
        .select(sql<number>`count(*)`.as('rows'))
        .executeTakeFirstOrThrow();
      return row.rows;
    });
  }
}
