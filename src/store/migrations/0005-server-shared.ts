/* eslint-disable check-file/filename-naming-convention -- migrations are named by a sortable number first */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * A server the user opted into sharing (docs/ARCHITECTURE.md, "ADR-005 amended again"):
 * one upstream connection serves every session, even for a 2025 server. Every server
 * registered before this migration keeps its own connection per session (0).
 */
export const serverShared: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('mcp_servers')
      .addColumn('shared', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`shared in (0, 1)`),
      )
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('mcp_servers').dropColumn('shared').execute();
  },
};
