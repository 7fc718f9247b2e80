import { sql, type Insertable, type Kysely } from 'kysely';
import type { ActivityEntry, ActivityQuery, ActivityRepository, Clock } from '../domain/ports.js';
import type { ActivityRow, ActivityTable, Database } from './schema.js';
import { guarded } from './sqlite-errors.js';

/** A page is never larger than this, whatever the caller asks: the UI pages backwards. */
export const MAX_ACTIVITY_PAGE = 1000;
export const DEFAULT_ACTIVITY_PAGE = 100;
/** Rows per INSERT, well under SQLite's bound-parameter limit (13 per row). */
const CHUNK = 200;

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

/** Field by field: an entry object may carry more than the log keeps (an id, say). */
function toRow(entry: ActivityEntry): Insertable<ActivityTable> {
  return {
    at: entry.at,
    trace_id: entry.trace_id,
    session_id: entry.session_id,
    client_name: entry.client_name,
    client_version: entry.client_version,
    server: entry.server,
    capability_type: entry.capability_type,
    capability_key: entry.capability_key,
    action: entry.action,
    duration_ms: entry.duration_ms,
    outcome: entry.outcome,
    error_code: entry.error_code,
    guard: entry.guard ?? null,
  };
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
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** All or nothing: a batch is one transaction (and one fsync under WAL). */
  append(entries: readonly ActivityEntry[]): Promise<void> {
    if (entries.length === 0) return Promise.resolve();
    return guarded({}, () =>
      this.db.transaction().execute(async (trx) => {
        for (let start = 0; start < entries.length; start += CHUNK) {
          const part = entries.slice(start, start + CHUNK).map(toRow);
          await trx.insertInto('activity').values(part).execute();
        }
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
