/** The store's public face: what the daemon (composition root) imports. */
export {
  applyPragmas,
  connectionPragmas,
  openConnection,
  openDatabase,
  type OpenDatabaseOptions,
  type Store,
} from './database.js';
export { migrateDown, migrateToLatest, knownMigrations, type MigrationReport } from './migrator.js';
export { createRepositories, type Repositories } from './repositories.js';
export {
  DEFAULT_ACTIVITY_PAGE,
  MAX_ACTIVITY_PAGE,
  SqliteActivityRepository,
  type ActivityRetention,
} from './activity-repository.js';
export { SqlitePreferenceRepository } from './preference-repository.js';
export { SqliteServerRepository } from './server-repository.js';
export { SqliteUpstreamProcessRepository } from './upstream-process-repository.js';
export { translateStoreError } from './sqlite-errors.js';
export type { Database } from './schema.js';
