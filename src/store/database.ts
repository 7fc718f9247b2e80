import { chmodSync, closeSync, openSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { CofferError } from '../domain/errors.js';
import type { Logger } from '../observability/logger.js';
import { migrateToLatest } from './migrator.js';
import type { Database } from './schema.js';

/**
 * Applied to every new connection (research notes, "SQLite configuration"). WAL is a
 * property of the file, the others of the connection: a connection that skipped them
 * would, for one, silently ignore ON DELETE CASCADE.
 */
export const connectionPragmas = [
  'journal_mode = WAL',
  'foreign_keys = ON',
  'synchronous = NORMAL',
  'busy_timeout = 5000',
  'cache_size = -64000',
  'temp_store = MEMORY',
] as const;

export interface Store {
  readonly db: Kysely<Database>;
  /**
   * Runs `work` on kysely's own better-sqlite3 connection while kysely holds it, so it
   * never lands inside one of kysely's transactions. For hot writes that reuse prepared
   * statements (kysely prepares every query again): everything else goes through `db`.
   */
  withConnection<T>(work: (connection: BetterSqlite3.Database) => T): Promise<T>;
  /** The database file, or `:memory:`. */
  readonly path: string;
  /** Closes the connection; the store is unusable afterwards. Idempotent. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Run pending migrations before returning (default true; tests of migrations say false). */
  readonly migrate?: boolean;
  readonly logger?: Logger;
}

const MEMORY = ':memory:';

export function applyPragmas(connection: BetterSqlite3.Database): void {
  for (const pragma of connectionPragmas) connection.pragma(pragma);
}

/**
 * Creates the file 0600 before SQLite touches it, so it is never readable by others,
 * whatever the umask (mode on create is masked: hence the chmod). SQLite gives the
 * -wal and -shm files the mode of the database file.
 */
function ensurePrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'a', 0o600));
    chmodSync(path, 0o600);
  } catch (error) {
    throw new CofferError('STORE_FAILURE', `Cannot create the Coffer database at ${path}`, {
      hint: 'check that the Coffer home exists and is writable by your user',
      cause: error,
    });
  }
}

/** One better-sqlite3 Database is one connection: this is the only place one is made. */
export function openConnection(path: string): BetterSqlite3.Database {
  if (path !== MEMORY) ensurePrivateFile(path);
  const connection = new BetterSqlite3(path);
  try {
    applyPragmas(connection);
  } catch (error) {
    connection.close();
    throw error;
  }
  return connection;
}

/**
 * Opens (creating if needed) the database at `path` and brings its schema up to date.
 * The directory must exist: the caller makes it private with `ensurePrivateDir`.
 */
export async function openDatabase(
  path: string,
  options: OpenDatabaseOptions = {},
): Promise<Store> {
  let connection: BetterSqlite3.Database | undefined;
  const db = new Kysely<Database>({
    // A factory, so whichever connection kysely opens goes through openConnection.
    dialect: new SqliteDialect({
      database: () => Promise.resolve((connection = openConnection(path))),
    }),
  });
  let closed: Promise<void> | undefined;
  const store: Store = {
    db,
    // Kysely opens its one connection before it hands it out, so it is set inside.
    withConnection: (work) => db.connection().execute(() => Promise.resolve(work(connection!))),
    path,
    close: () => (closed ??= db.destroy()),
  };
  if (options.migrate === false) return store;
  try {
    const { executed } = await migrateToLatest(db);
    if (executed.length > 0) options.logger?.info({ migrations: executed }, 'database migrated');
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
