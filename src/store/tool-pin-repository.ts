import type { Kysely } from 'kysely';
import type {
  Clock,
  JsonObject,
  PinArchive,
  PinnedEntry,
  ToolPinRepository,
} from '../domain/ports.js';
import type { HeldTool, PinRecord, PinState } from '../domain/tool-pin.js';
import type { Database, McpToolPinsTable } from './schema.js';
import { serverIdOf } from './server-rows.js';
import { guarded } from './sqlite-errors.js';

const TABLE = 'mcp_tool_pins';

/** A definition edited by hand into something unreadable still shows, as nothing. */
function parsed(text: string | null): JsonObject {
  if (text === null) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as JsonObject)
      : {};
  } catch {
    return {};
  }
}

/** A row as the pin snapshot keeps it. */
function recordOf(row: Omit<McpToolPinsTable, 'resource_id'>): PinRecord {
  const pending =
    row.pending_hash === null
      ? {}
      : {
          pending: {
            hash: row.pending_hash,
            definition: parsed(row.pending_definition),
            detected_at: row.detected_at ?? row.pinned_at,
          },
        };
  return {
    key: row.tool_key,
    hash: row.hash,
    definition: parsed(row.definition),
    pinned_at: row.pinned_at,
    ...pending,
  };
}

/** Tool pins by server name at the port, by server id in the table. */
export class SqliteToolPinRepository implements ToolPinRepository, PinArchive {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  states(server: string): Promise<ReadonlyMap<string, PinState>> {
    return guarded({ server }, async () => {
      const id = await serverIdOf(this.db, server);
      const rows = await this.db
        .selectFrom(TABLE)
        .select(['tool_key', 'hash', 'pending_hash'])
        .where('resource_id', '=', id)
        .execute();
      return new Map(
        rows.map(({ tool_key, hash, pending_hash }) => [tool_key, { hash, pending_hash }]),
      );
    });
  }

  /** Two sessions may pin the same tool at once: the first pin stands, and is returned. */
  pin(server: string, entries: readonly PinnedEntry[]): Promise<ReadonlyMap<string, string>> {
    return guarded({ server }, () =>
      this.db.transaction().execute(async (trx) => {
        const id = await serverIdOf(trx, server);
        const pinned_at = this.clock.now().toISOString();
        const stored = new Map<string, string>();
        for (const entry of entries) {
          await trx
            .insertInto(TABLE)
            .values({
              resource_id: id,
              tool_key: entry.key,
              hash: entry.hash,
              definition: JSON.stringify(entry.definition),
              pinned_at,
            })
            .onConflict((c) => c.columns(['resource_id', 'tool_key']).doNothing())
            .execute();
          const row = await trx
            .selectFrom(TABLE)
            .select('hash')
            .where('resource_id', '=', id)
            .where('tool_key', '=', entry.key)
            .executeTakeFirstOrThrow();
          stored.set(entry.key, row.hash);
        }
        return stored;
      }),
    );
  }

  /** One UPDATE that matches only when this change is new: one activity row per change. */
  markChanged(server: string, entry: PinnedEntry): Promise<boolean> {
    return guarded({ server }, async () => {
      const id = await serverIdOf(this.db, server);
      const result = await this.db
        .updateTable(TABLE)
        .set({
          pending_hash: entry.hash,
          pending_definition: JSON.stringify(entry.definition),
          detected_at: this.clock.now().toISOString(),
        })
        .where('resource_id', '=', id)
        .where('tool_key', '=', entry.key)
        .where('hash', '!=', entry.hash)
        .where((eb) =>
          eb.or([eb('pending_hash', 'is', null), eb('pending_hash', '!=', entry.hash)]),
        )
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    });
  }

  clearChanged(server: string, key: string): Promise<void> {
    return guarded({ server }, async () => {
      const id = await serverIdOf(this.db, server);
      await this.db
        .updateTable(TABLE)
        .set({ pending_hash: null, pending_definition: null, detected_at: null })
        .where('resource_id', '=', id)
        .where('tool_key', '=', key)
        .execute();
    });
  }

  held(server: string): Promise<HeldTool[]> {
    return guarded({ server }, async () => {
      const id = await serverIdOf(this.db, server);
      const rows = await this.db
        .selectFrom(TABLE)
        .selectAll()
        .where('resource_id', '=', id)
        .where('pending_hash', 'is not', null)
        .orderBy('tool_key')
        .execute();
      return rows.map((row) => ({
        key: row.tool_key,
        pinned: parsed(row.definition),
        pinned_at: row.pinned_at,
        changed: parsed(row.pending_definition),
        detected_at: row.detected_at ?? row.pinned_at,
      }));
    });
  }

  accept(server: string, key?: string): Promise<string[]> {
    return guarded({ server }, async () => {
      const id = await serverIdOf(this.db, server);
      let query = this.db
        .updateTable(TABLE)
        .set((eb) => ({
          hash: eb.fn.coalesce('pending_hash', 'hash'),
          definition: eb.fn.coalesce('pending_definition', 'definition'),
          pinned_at: this.clock.now().toISOString(),
          pending_hash: null,
          pending_definition: null,
          detected_at: null,
        }))
        .where('resource_id', '=', id)
        .where('pending_hash', 'is not', null);
      if (key !== undefined) query = query.where('tool_key', '=', key);
      const rows = await query.returning('tool_key').execute();
      return rows.map((row) => row.tool_key).sort();
    });
  }

  all(): Promise<ReadonlyMap<string, readonly PinRecord[]>> {
    return guarded({}, async () => {
      const rows = await this.db
        .selectFrom(TABLE)
        .innerJoin('mcp_servers', 'mcp_servers.id', `${TABLE}.resource_id`)
        .select([
          'mcp_servers.name as server',
          'tool_key',
          'hash',
          'definition',
          'pinned_at',
          'pending_hash',
          'pending_definition',
          'detected_at',
        ])
        .orderBy('mcp_servers.name')
        .orderBy('tool_key')
        .execute();
      const byServer = new Map<string, PinRecord[]>();
      for (const { server, ...row } of rows) {
        const records = byServer.get(server) ?? [];
        records.push(recordOf(row));
        byServer.set(server, records);
      }
      return byServer;
    });
  }

  restore(server: string, records: readonly PinRecord[]): Promise<void> {
    return guarded({ server }, () =>
      this.db.transaction().execute(async (trx) => {
        const id = await serverIdOf(trx, server);
        for (const record of records)
          await trx
            .insertInto(TABLE)
            .values({
              resource_id: id,
              tool_key: record.key,
              hash: record.hash,
              definition: JSON.stringify(record.definition),
              pinned_at: record.pinned_at,
              pending_hash: record.pending?.hash ?? null,
              pending_definition:
                record.pending === undefined ? null : JSON.stringify(record.pending.definition),
              detected_at: record.pending?.detected_at ?? null,
            })
            .onConflict((c) => c.columns(['resource_id', 'tool_key']).doNothing())
            .execute();
      }),
    );
  }
}
