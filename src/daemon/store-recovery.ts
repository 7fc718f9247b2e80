import { existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { CofferPaths } from '../config/home.js';
import { parseConfigFile } from '../domain/config-file.js';
import { planConfigImport } from '../domain/config-plan.js';
import { writeConfigChange, type ConfigStores } from '../domain/config-store.js';
import { adminEntry } from '../domain/admin-entry.js';
import { CofferError } from '../domain/errors.js';
import type { ActivityEntry, ActivitySink, Clock, PinArchive } from '../domain/ports.js';
import type { Logger } from '../observability/logger.js';
import { openDatabase, type Store } from '../store/index.js';
import { readPinSnapshot, type ReadPins } from './pin-snapshot.js';

type ParsedConfig = ReturnType<typeof parseConfigFile>;

/** What the daemon did at start about a damaged database, for the log and `coffer doctor`. */
export interface StoreRestore {
  /** Where the damaged file was set aside, next to where it was. */
  readonly damagedPath: string;
  /** When the snapshot restored from was last written. */
  readonly snapshotAt: Date;
  readonly config: ParsedConfig;
  /** The tool pins to write back, or why there are none (pin-snapshot.ts). */
  readonly pins: ReadPins;
}

export interface OpenedStore {
  readonly store: Store;
  /** Set when the database was damaged and a new one made: restore `config` into it. */
  readonly restore?: StoreRestore;
}

/**
 * SQLite's code for a file that is not a sound database: in the data of a translated
 * store error (sqlite-errors.ts), or on a raw one (the check's pragma).
 */
function damageCode(error: unknown): string | undefined {
  const code =
    error instanceof CofferError
      ? error.data?.['sqlite_code']
      : (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code) ? code : undefined;
}

/**
 * Opens the database and checks every page (`PRAGMA quick_check`: about 30 ms on a
 * database at the activity log's 100,000-row limit), so damage anywhere is found now,
 * while a snapshot can replace it, not later at the first read of a broken page.
 */
async function openChecked(path: string, logger: Logger | undefined): Promise<Store> {
  const store = await openDatabase(path, logger === undefined ? {} : { logger });
  try {
    const rows = await store.withConnection(
      (connection) => connection.pragma('quick_check') as { quick_check: string }[],
    );
    const verdict = rows.map((row) => row.quick_check).join('; ');
    if (verdict !== 'ok')
      throw new CofferError('STORE_FAILURE', 'The Coffer database is damaged', {
        data: { sqlite_code: 'SQLITE_CORRUPT', check: verdict.slice(0, 500) },
      });
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** The snapshot, or undefined when there is none; one that cannot be read is an error. */
function readSnapshot(path: string): { config: ParsedConfig; at: Date } | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return {
      config: parseConfigFile(JSON.parse(readFileSync(path, 'utf8')) as unknown),
      at: statSync(path).mtime,
    };
  } catch (error) {
    throw damaged(error, `${basename(path)}, which would restore it, cannot be read either`);
  }
}

function damaged(cause: unknown, why: string): CofferError {
  return new CofferError('STORE_FAILURE', `The Coffer database is damaged, and ${why}`, {
    hint: 'move coffer.db aside (keep it: `sqlite3 coffer.db .recover` may get data out of it), and the next coffer command starts afresh; then add your servers again, or import a file written by `coffer config export` (`coffer config import <file>`)',
    cause,
  });
}

/** Moves the database and its WAL and shared-memory files aside, under one stamped name. */
function setAside(database: string, now: Date): string {
  const aside = `${database}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  try {
    for (const suffix of ['', '-wal', '-shm'])
      if (existsSync(`${database}${suffix}`))
        renameSync(`${database}${suffix}`, `${aside}${suffix}`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw damaged(error, `it could not be moved aside (${code})`);
  }
  return aside;
}

export interface OpenStoreOptions {
  readonly paths: Pick<CofferPaths, 'database' | 'configSnapshot' | 'pinSnapshot'>;
  readonly now: () => Date;
  readonly logger?: Logger;
}

/**
 * Opens the daemon's database. A damaged one (SQLite says so, or its check finds a bad
 * page) is set aside and a new one made, to be filled from the configuration snapshot
 * (config-snapshot.ts); without a readable snapshot the daemon does not start, and the
 * error says what to do, as before there was one.
 */
export async function openStore(options: OpenStoreOptions): Promise<OpenedStore> {
  const { paths, logger } = options;
  try {
    return { store: await openChecked(paths.database, logger) };
  } catch (error) {
    const code = damageCode(error);
    if (code === undefined) throw error;
    const snapshot = readSnapshot(paths.configSnapshot);
    if (snapshot === undefined) throw damaged(error, 'there is no snapshot to restore it from');
    const damagedPath = setAside(paths.database, options.now());
    logger?.warn(
      { err: error, sqlite_code: code, damaged: damagedPath },
      'the database is damaged: set aside, restoring from the configuration snapshot',
    );
    const store = await openChecked(paths.database, logger);
    const pins = readPinSnapshot(paths.pinSnapshot);
    return {
      store,
      restore: { damagedPath, snapshotAt: snapshot.at, config: snapshot.config, pins },
    };
  }
}

/** What a restore did: `coffer doctor` says it for as long as this daemon runs. */
export interface RestoreReport {
  /** When the damage was found (this daemon's start), ISO. */
  readonly at: string;
  readonly damagedPath: string;
  /** When the snapshot restored from was written, ISO. */
  readonly snapshotAt: string;
  readonly restored: readonly string[];
  /** Servers the new database refused (logged): the user adds them again. */
  readonly failed: readonly string[];
  /** Tool pins written back; with `pinsMissing`, why there were none to write. */
  readonly pins: number;
  readonly pinsMissing?: string;
}

export interface RestoreDeps {
  readonly stores: ConfigStores;
  readonly pins: PinArchive;
  readonly activity: ActivitySink;
  readonly clock: Clock;
  readonly logger?: Logger;
}

/**
 * Fills the new database from the snapshot, server by server (one refused is skipped and
 * logged), and records it in the activity log, where the user looks for what changed.
 */
export async function restoreSnapshot(
  restore: StoreRestore,
  deps: RestoreDeps,
): Promise<RestoreReport> {
  const { config } = restore;
  const plan = planConfigImport({
    ...config,
    current: [],
    preferences: new Map(),
    currentPolicies: new Map(),
    secrets: [],
  });
  const byName = new Map(config.definitions.map((definition) => [definition.name, definition]));
  const restored: string[] = [];
  const failed: string[] = [];
  let pins = 0;
  for (const change of plan.changes) {
    const definition = byName.get(change.server);
    if (definition === undefined) continue;
    try {
      await writeConfigChange(deps.stores, change, definition);
      restored.push(change.server);
    } catch (error) {
      failed.push(change.server);
      deps.logger?.warn({ err: error, server: change.server }, 'could not restore a server');
      continue;
    }
    pins += await restorePins(restore.pins, change.server, deps);
  }
  const at = deps.clock.now().toISOString();
  deps.logger?.warn({ restored, failed, damaged: restore.damagedPath }, 'database restored');
  deps.activity.record(restoredEntry(at, restore.damagedPath, failed));
  return {
    at,
    damagedPath: restore.damagedPath,
    snapshotAt: restore.snapshotAt.toISOString(),
    restored,
    failed,
    pins,
    ...('missing' in restore.pins ? { pinsMissing: restore.pins.missing } : {}),
  };
}

/** A restored server's pins written back; how many (none when the store refused them). */
async function restorePins(pins: ReadPins, server: string, deps: RestoreDeps): Promise<number> {
  const records = 'pins' in pins ? (pins.pins.get(server) ?? []) : [];
  if (records.length === 0) return 0;
  try {
    await deps.pins.restore(server, records);
    return records.length;
  } catch (error) {
    deps.logger?.warn({ err: error, server }, 'could not restore the tool pins of a server');
    return 0;
  }
}

function restoredEntry(at: string, damagedPath: string, failed: readonly string[]): ActivityEntry {
  return adminEntry({
    at,
    server: null,
    action: 'database.restore',
    key: basename(damagedPath),
    errorCode: failed.length === 0 ? null : 'STORE_FAILURE',
    client: { name: 'coffer-daemon', version: null },
  });
}
