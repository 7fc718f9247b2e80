import type { Kysely } from 'kysely';
import { CofferError } from '../domain/errors.js';
import { assertServerName } from '../domain/naming.js';
import type { Clock, ServerPatch, ServerRepository } from '../domain/ports.js';
import {
  serverDefinitionSchema,
  type ServerDefinition,
  type ServerRecord,
} from '../domain/server-definition.js';
import type { Database } from './schema.js';
import { definitionColumns, rowToDefinition, rowToRecord } from './server-rows.js';
import { guarded, serverNotFound } from './sqlite-errors.js';

/**
 * Re-checks what is about to be written: a patch can make a valid definition invalid
 * (say, transport http without a url), and the store must never hold one the upstream
 * layer cannot start.
 */
function checkDefinition(definition: ServerDefinition): ServerDefinition {
  assertServerName(definition.name);
  const parsed = serverDefinitionSchema.safeParse(definition);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => issue.message).join('; ');
  throw new CofferError('INVALID_INPUT', `Invalid server definition: ${problems}`, {
    data: { server: definition.name },
  });
}

export class SqliteServerRepository implements ServerRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  list(): Promise<ServerRecord[]> {
    return guarded({}, async () => {
      const rows = await this.db.selectFrom('mcp_servers').selectAll().orderBy('name').execute();
      return rows.map(rowToRecord);
    });
  }

  get(name: string): Promise<ServerRecord | undefined> {
    return guarded({ server: name }, async () => {
      const row = await this.db
        .selectFrom('mcp_servers')
        .selectAll()
        .where('name', '=', name)
        .executeTakeFirst();
      return row === undefined ? undefined : rowToRecord(row);
    });
  }

  create(definition: ServerDefinition): Promise<ServerRecord> {
    return guarded({ server: definition.name }, async () => {
      const checked = checkDefinition(definition);
      const now = this.clock.now().toISOString();
      const row = await this.db
        .insertInto('mcp_servers')
        .values({
          name: checked.name,
          ...definitionColumns(checked),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return rowToRecord(row);
    });
  }

  /**
   * Merges like an object spread: keys absent from the patch keep their value, keys
   * present with `undefined` clear an optional field (command, cwd, url).
   */
  /** The store's own rules are the schema's, checked where the definition was parsed. */
  check(): void {}

  update(name: string, patch: ServerPatch): Promise<ServerRecord> {
    return guarded({ server: name }, () =>
      this.db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('mcp_servers')
          .selectAll()
          .where('name', '=', name)
          .executeTakeFirst();
        if (current === undefined) throw serverNotFound(name);
        const merged = { ...rowToDefinition(current), ...patch, name };
        const checked = checkDefinition(merged);
        const row = await trx
          .updateTable('mcp_servers')
          .set({ ...definitionColumns(checked), updated_at: this.clock.now().toISOString() })
          .where('id', '=', current.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return rowToRecord(row);
      }),
    );
  }

  /** Preferences go with the server (ON DELETE CASCADE); activity rows stay. */
  remove(name: string): Promise<void> {
    return guarded({ server: name }, async () => {
      const result = await this.db
        .deleteFrom('mcp_servers')
        .where('name', '=', name)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) throw serverNotFound(name);
    });
  }
}
