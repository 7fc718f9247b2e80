/* eslint-disable check-file/filename-naming-convention -- migrations are named by a sortable number first */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Tool pins (issue 20, rug-pull protection): per tool, the definition the user allowed
 * and its hash, and a different definition seen since (pending_*), waiting for review.
 * The one place Coffer keeps what an upstream says (ADR-004 keeps only choices): a diff
 * needs the definition that was allowed, not only its hash. Keyed by the server's id,
 * so removing a server takes its pins with it.
 */
export const toolPins: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('mcp_tool_pins')
      .addColumn('resource_id', 'integer', (c) =>
        c.notNull().references('mcp_servers.id').onDelete('cascade'),
      )
      .addColumn('tool_key', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('definition', 'text', (c) => c.notNull())
      .addColumn('pinned_at', 'text', (c) => c.notNull())
      .addColumn('pending_hash', 'text')
      .addColumn('pending_definition', 'text')
      .addColumn('detected_at', 'text')
      .addUniqueConstraint('mcp_tool_pins_pair', ['resource_id', 'tool_key'])
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('mcp_tool_pins').execute();
  },
};
