/* eslint-disable check-file/filename-naming-convention -- migrations are named by a sortable number first */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * What the secret guard did to a call (issue 20.3): `secret_blocked`,
 * `credential_flagged`, `credential_blocked`, `redacted`, comma-separated; NULL for
 * rows it did not touch and for every row written before this migration. Names and
 * kinds live in the error message only: never a secret's value.
 */
export const activityGuard: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('activity').addColumn('guard', 'text').execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('activity').dropColumn('guard').execute();
  },
};
