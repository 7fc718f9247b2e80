import type { Kysely } from 'kysely';
import type { Clock, UpstreamProcessRecord, UpstreamProcessRepository } from '../domain/ports.js';
import type { Database } from './schema.js';
import { guarded } from './sqlite-errors.js';

/**
 * The upstream processes this daemon spawned, so the next daemon can find and stop
 * those a crash left behind. pid + start time + command line together identify a
 * process: a pid alone may have been recycled by the OS.
 */
export class SqliteUpstreamProcessRepository implements UpstreamProcessRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /** Replaces any row with the same pid: only one live process can hold a pid. */
  record(entry: UpstreamProcessRecord): Promise<void> {
    return guarded({}, async () => {
      const row = {
        pid: entry.pid,
        start_time: entry.start_time,
        command_line: entry.command_line,
        server: entry.server,
        session_id: entry.session_id,
        recorded_at: this.clock.now().toISOString(),
      };
      await this.db
        .insertInto('upstream_processes')
        .values(row)
        .onConflict((conflict) => conflict.column('pid').doUpdateSet(row))
        .execute();
    });
  }

  remove(pid: number): Promise<void> {
    return guarded({}, async () => {
      await this.db.deleteFrom('upstream_processes').where('pid', '=', pid).execute();
    });
  }

  list(): Promise<UpstreamProcessRecord[]> {
    return guarded({}, async () => {
      const rows = await this.db
        .selectFrom('upstream_processes')
        .select(['pid', 'start_time', 'command_line', 'server', 'session_id'])
        .orderBy('pid')
        .execute();
      return rows;
    });
  }

  clear(): Promise<void> {
    return guarded({}, async () => {
      await this.db.deleteFrom('upstream_processes').execute();
    });
  }
}
