import type BetterSqlite3 from 'better-sqlite3';
import type { ActivityEntry } from '../domain/ports.js';

/**
 * Every relayed call is one activity row. Through kysely a batch was a multi-row INSERT
 * that SQLite parsed and planned again each time (its text changes with the batch size);
 * here one statement is prepared once per connection and run for each row inside one
 * transaction (docs/PERFORMANCE.md, "The activity row and line").
 */
const INSERT = `insert into "activity" ("at", "trace_id", "session_id", "client_name",
  "client_version", "server", "capability_type", "capability_key", "action", "duration_ms",
  "outcome", "error_code", "guard") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Appends a batch in one transaction (all or nothing). */
export type InsertBatch = (entries: readonly ActivityEntry[]) => void;

/**
 * The connection's prepared insert. Field by field, as kysely's insert was: an entry object
 * may carry more than the log keeps (an id, say), and only these columns are ever bound.
 * Optional columns absent from the entry are NULL, as kysely wrote them.
 */
export function prepareActivityInsert(connection: BetterSqlite3.Database): InsertBatch {
  const statement = connection.prepare(INSERT);
  // better-sqlite3's transaction: BEGIN, the rows, COMMIT; ROLLBACK if one throws.
  return connection.transaction((entries: readonly ActivityEntry[]) => {
    for (const entry of entries) {
      statement.run(
        entry.at,
        entry.trace_id ?? null,
        entry.session_id ?? null,
        entry.client_name ?? null,
        entry.client_version ?? null,
        entry.server ?? null,
        entry.capability_type,
        entry.capability_key ?? null,
        entry.action,
        entry.duration_ms ?? null,
        entry.outcome,
        entry.error_code ?? null,
        entry.guard ?? null,
      );
    }
  });
}
