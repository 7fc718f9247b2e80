/* eslint-disable check-file/filename-naming-convention -- migrations are named by a sortable number first */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

const POLICY = sql`policy in ('allow', 'ask', 'deny')`;

/**
 * Approval policies (issue 20): one row per tool the user chose for, one row per server
 * whose default for destructive tools the user changed. Keyed by the server's id like
 * preferences, so removing a server takes its policies with it.
 */
export const toolPolicies: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('mcp_tool_policies')
      .addColumn('resource_id', 'integer', (c) =>
        c.notNull().references('mcp_servers.id').onDelete('cascade'),
      )
      .addColumn('tool_key', 'text', (c) => c.notNull())
      .addColumn('policy', 'text', (c) => c.notNull().check(POLICY))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('mcp_tool_policies_pair', ['resource_id', 'tool_key'])
      .execute();
    await db.schema
      .createTable('mcp_server_policies')
      .addColumn('resource_id', 'integer', (c) =>
        c.primaryKey().references('mcp_servers.id').onDelete('cascade'),
      )
      .addColumn('destructive_policy', 'text', (c) =>
        c.notNull().check(sql`destructive_policy in ('allow', 'ask', 'deny')`),
      )
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('mcp_server_policies').execute();
    await db.schema.dropTable('mcp_tool_policies').execute();
  },
};
