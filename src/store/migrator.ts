import type { Kysely } from 'kysely';
import {
  Migrator,
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
} from 'kysely/migration';
import { CofferError } from '../domain/errors.js';
import { translateStoreError } from './sqlite-errors.js';
import { initial } from './migrations/0001-initial.js';
import { toolPolicies } from './migrations/0002-tool-policies.js';
import { toolPins } from './migrations/0003-tool-pins.js';
import { activityGuard } from './migrations/0004-activity-guard.js';
import { serverShared } from './migrations/0005-server-shared.js';

/**
 * Migrations are listed here, not found by globbing a directory: the same code runs
 * from src/ under vitest and from dist/ when installed, and a bundler may merge files.
 * Names sort in the order they must run; never rename or edit one that has shipped.
 */
const migrations: Readonly<Record<string, Migration>> = {
  '0001-initial': initial,
  '0002-tool-policies': toolPolicies,
  '0003-tool-pins': toolPins,
  '0004-activity-guard': activityGuard,
  '0005-server-shared': serverShared,
};

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve({ ...migrations }),
};

/** Any Kysely will do: migrations never rely on the current schema types. */
function migrator<DB>(db: Kysely<DB>): Migrator {
  return new Migrator({ db: db as Kysely<unknown>, provider });
}

export interface MigrationReport {
  /** Names of the migrations applied (up) or reverted (down) by this call. */
  readonly executed: readonly string[];
}

/** Kysely's migrator reports errors instead of throwing: turn them into CofferErrors. */
function settle(result: MigrationResultSet): MigrationReport {
  const executed = (result.results ?? [])
    .filter((step) => step.status === 'Success')
    .map((step) => step.migrationName);
  if (result.error === undefined) return { executed };
  const failed = result.results?.find((step) => step.status === 'Error')?.migrationName;
  if (failed === undefined && isUnknownMigration(result.error)) {
    throw new CofferError('STORE_FAILURE', 'The Coffer database was written by a newer Coffer', {
      hint: 'upgrade coffer, or move coffer.db aside to start afresh',
      cause: result.error,
    });
  }
  const translated = translateStoreError(result.error);
  if (failed === undefined || translated.code !== 'STORE_FAILURE') throw translated;
  throw new CofferError('STORE_FAILURE', `${translated.message} (migration ${failed} failed)`, {
    ...(translated.hint === undefined ? {} : { hint: translated.hint }),
    ...(translated.data === undefined ? {} : { data: translated.data }),
    cause: result.error,
  });
}

/** Kysely refuses a database that has applied migrations this build does not know. */
function isUnknownMigration(error: unknown): boolean {
  return (
    error instanceof Error && /previously executed migration .* is missing/.test(error.message)
  );
}

/** Applies every pending migration, in order, in one transaction (all or none). */
export async function migrateToLatest<DB>(db: Kysely<DB>): Promise<MigrationReport> {
  return settle(await migrator(db).migrateToLatest());
}

/** Reverts the newest `steps` applied migrations (for tests and manual downgrades). */
export async function migrateDown<DB>(db: Kysely<DB>, steps = 1): Promise<MigrationReport> {
  const executed: string[] = [];
  for (let step = 0; step < steps; step += 1) {
    const report = settle(await migrator(db).migrateDown());
    if (report.executed.length === 0) break;
    executed.push(...report.executed);
  }
  return { executed };
}

/** The names this build knows, oldest first. */
export function knownMigrations(): readonly string[] {
  return Object.keys(migrations).sort();
}
