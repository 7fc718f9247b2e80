/* eslint-disable check-file/filename-naming-convention -- migrations are named by a sortable number first */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The first schema. Migrations take `Kysely<unknown>`: they must keep meaning what they
 * meant when written, whatever src/store/schema.ts says later.
 */

async function createServers(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mcp_servers')
    // AUTOINCREMENT: an id is never reused, so a stale reference can't hit a newer server.
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('transport', 'text', (c) =>
      c.notNull().check(sql`transport in ('stdio', 'http', 'sse')`),
    )
    .addColumn('command', 'text')
    .addColumn('args', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('env', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('cwd', 'text')
    .addColumn('url', 'text')
    .addColumn('headers', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('secret_env', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('secret_headers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('enabled', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`enabled in (0, 1)`),
    )
    .addColumn('auto_enable_new_capabilities', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`auto_enable_new_capabilities in (0, 1)`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

/** Exactly the columns of ADR-004. */
async function createPreferences(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mcp_capability_preferences')
    .addColumn('resource_id', 'integer', (c) =>
      c.notNull().references('mcp_servers.id').onDelete('cascade'),
    )
    .addColumn('capability_type', 'text', (c) =>
      c
        .notNull()
        .check(sql`capability_type in ('tool', 'prompt', 'resource', 'resource_template')`),
    )
    .addColumn('capability_key', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().check(sql`enabled in (0, 1)`))
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('mcp_capability_preferences_triple', [
      'resource_id',
      'capability_type',
      'capability_key',
    ])
    .execute();
}

/**
 * `server` is a name, not a foreign key: the log must outlive the servers it mentions.
 * AUTOINCREMENT keeps ids rising after pruning, which paging by `before_id` relies on.
 */
async function createActivity(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('activity')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('trace_id', 'text')
    .addColumn('session_id', 'text')
    .addColumn('client_name', 'text')
    .addColumn('client_version', 'text')
    .addColumn('server', 'text')
    .addColumn('capability_type', 'text', (c) => c.notNull())
    .addColumn('capability_key', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer')
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('ok', 'error')`))
    .addColumn('error_code', 'text')
    .execute();
  await db.schema.createIndex('activity_at').on('activity').column('at').execute();
  await db.schema
    .createIndex('activity_server_id')
    .on('activity')
    .columns(['server', 'id'])
    .execute();
}

/**
 * What the orphan sweep needs to recognise a process it spawned after a crash. The
 * server is a name, not a foreign key: removing a server must not hide its orphans.
 */
async function createUpstreamProcesses(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upstream_processes')
    .addColumn('pid', 'integer', (c) => c.primaryKey())
    .addColumn('start_time', 'text', (c) => c.notNull())
    .addColumn('command_line', 'text', (c) => c.notNull())
    .addColumn('server', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text')
    .addColumn('recorded_at', 'text', (c) => c.notNull())
    .execute();
}

export const initial: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await createServers(db);
    await createPreferences(db);
    await createActivity(db);
    await createUpstreamProcesses(db);
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('upstream_processes').execute();
    await db.schema.dropTable('activity').execute();
    await db.schema.dropTable('mcp_capability_preferences').execute();
    await db.schema.dropTable('mcp_servers').execute();
  },
};
