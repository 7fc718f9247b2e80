import type { Kysely } from 'kysely';
import type { CapabilityPreference, CapabilityType } from '../domain/capability.js';
import type { Clock, PreferenceRepository } from '../domain/ports.js';
import type { Database } from './schema.js';
import { serverIdOf } from './server-rows.js';
import { guarded } from './sqlite-errors.js';

/**
 * ADR-004: the user's choices are the only capability state kept. Keyed by server name
 * at the port, by the server's surrogate id (`resource_id`) in the table, so removing a
 * server takes its preferences with it.
 */

const TABLE = 'mcp_capability_preferences';
const TRIPLE = ['resource_id', 'capability_type', 'capability_key'] as const;
/** Rows per statement, well under SQLite's bound-parameter limit (6 per row). */
const CHUNK = 400;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK) {
    result.push(items.slice(start, start + CHUNK));
  }
  return result;
}

export class SqlitePreferenceRepository implements PreferenceRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  /**
   * One upsert per chunk, all in one transaction: new keys are inserted with
   * `autoEnable`, known keys only get `last_seen_at` (the user's choice stands), and
   * keys absent from `keys` are left alone so a flapping upstream loses nothing.
   */
  reconcile(
    server: string,
    type: CapabilityType,
    keys: readonly string[],
    autoEnable: boolean,
  ): Promise<ReadonlyMap<string, boolean>> {
    return guarded({ server }, () =>
      this.db.transaction().execute(async (trx) => {
        const resourceId = await serverIdOf(trx, server);
        const now = this.clock.now().toISOString();
        const enabled = new Map<string, boolean>();
        for (const part of chunks([...new Set(keys)])) {
          const rows = await trx
            .insertInto(TABLE)
            .values(
              part.map((key) => ({
                resource_id: resourceId,
                capability_type: type,
                capability_key: key,
                enabled: autoEnable ? 1 : 0,
                first_seen_at: now,
                last_seen_at: now,
              })),
            )
            .onConflict((conflict) =>
              conflict.columns(TRIPLE).doUpdateSet((eb) => ({
                last_seen_at: eb.ref('excluded.last_seen_at'),
              })),
            )
            .returning(['capability_key', 'enabled'])
            .execute();
          for (const row of rows) enabled.set(row.capability_key, row.enabled === 1);
        }
        return enabled;
      }),
    );
  }

  list(server: string, type?: CapabilityType): Promise<CapabilityPreference[]> {
    return guarded({ server }, async () => {
      const resourceId = await serverIdOf(this.db, server);
      let query = this.db.selectFrom(TABLE).selectAll().where('resource_id', '=', resourceId);
      if (type !== undefined) query = query.where('capability_type', '=', type);
      const rows = await query.orderBy('capability_type').orderBy('capability_key').execute();
      return rows.map((row) => ({
        server,
        type: row.capability_type,
        key: row.capability_key,
        enabled: row.enabled === 1,
        first_seen_at: row.first_seen_at,
        last_seen_at: row.last_seen_at,
      }));
    });
  }

  /** undefined for a key never seen nor set, and for a server that does not exist. */
  isEnabled(server: string, type: CapabilityType, key: string): Promise<boolean | undefined> {
    return guarded({ server }, async () => {
      const row = await this.db
        .selectFrom(`${TABLE} as p`)
        .innerJoin('mcp_servers as s', 's.id', 'p.resource_id')
        .select('p.enabled')
        .where('s.name', '=', server)
        .where('p.capability_type', '=', type)
        .where('p.capability_key', '=', key)
        .executeTakeFirst();
      return row === undefined ? undefined : row.enabled === 1;
    });
  }

  /**
   * Upserts: a capability may be switched before it was ever listed. Such a row counts
   * as first and last seen now, since ADR-004 makes both columns mandatory. Counts only
   * rows inserted or actually flipped, so "already disabled" reads as 0.
   */
  setEnabled(
    server: string,
    type: CapabilityType,
    keys: readonly string[],
    enabled: boolean,
  ): Promise<number> {
    return guarded({ server }, () =>
      this.db.transaction().execute(async (trx) => {
        const resourceId = await serverIdOf(trx, server);
        const now = this.clock.now().toISOString();
        const flag = enabled ? 1 : 0;
        let changed = 0;
        for (const part of chunks([...new Set(keys)])) {
          const result = await trx
            .insertInto(TABLE)
            .values(
              part.map((key) => ({
                resource_id: resourceId,
                capability_type: type,
                capability_key: key,
                enabled: flag,
                first_seen_at: now,
                last_seen_at: now,
              })),
            )
            .onConflict((conflict) =>
              conflict
                .columns(TRIPLE)
                .doUpdateSet({ enabled: flag })
                .where(`${TABLE}.enabled`, '<>', flag),
            )
            .executeTakeFirst();
          changed += Number(result.numInsertedOrUpdatedRows ?? 0n);
        }
        return changed;
      }),
    );
  }
}
