import { CofferError } from '../domain/errors.js';

/**
 * SQLite errors stop here: callers above the store see CofferErrors with a message a
 * user can act on. SQL text and SQLite's own messages (which quote table and column
 * names) stay in `cause`, for the log only.
 */

export function serverExists(name: string): CofferError {
  return new CofferError('SERVER_EXISTS', `A server named "${name}" already exists`, {
    hint: `choose another name, or change this one with \`coffer mcp edit ${name}\`, which keeps its tool choices (\`coffer mcp remove ${name}\` forgets them)`,
    data: { server: name },
  });
}

export function serverNotFound(name: string): CofferError {
  return new CofferError('SERVER_NOT_FOUND', `No server named "${name}"`, {
    hint: 'see the registered servers with `coffer mcp list`',
    data: { server: name },
  });
}

export interface StoreErrorContext {
  /** The server the operation is about, for SERVER_EXISTS / SERVER_NOT_FOUND. */
  readonly server?: string;
}

/**
 * The daemon checks its database at start and restores a damaged one from the configuration
 * snapshot (src/daemon/store-recovery.ts): damage found while it runs is mended by a restart.
 */
const RESTART_RESTORES =
  'restart the daemon (`coffer stop`, then `coffer start`): it sets the damaged file aside and restores your servers, switches and policies from config-snapshot.json';

interface Advice {
  readonly message: string;
  readonly hint: string;
}

/** Keyed by SQLite's primary result code: extended codes (SQLITE_IOERR_WRITE, …) share advice. */
const adviceByPrimaryCode: Readonly<Record<string, Advice>> = {
  SQLITE_BUSY: {
    message: 'The Coffer database is locked by another process',
    hint: 'retry in a moment; if it persists, stop other coffer processes using the same home',
  },
  SQLITE_LOCKED: {
    message: 'The Coffer database is locked by another operation',
    hint: 'retry in a moment',
  },
  SQLITE_READONLY: {
    message: 'The Coffer database is read-only',
    hint: 'make coffer.db and its directory writable by your user',
  },
  SQLITE_FULL: {
    message: 'The disk holding the Coffer database is full',
    hint: 'free some disk space, then retry',
  },
  SQLITE_IOERR: {
    message: 'Could not read or write the Coffer database (I/O error)',
    hint: 'check the disk and the permissions of the Coffer home, then restart the daemon',
  },
  SQLITE_CORRUPT: {
    message: 'The Coffer database is damaged',
    hint: RESTART_RESTORES,
  },
  SQLITE_NOTADB: {
    message: 'coffer.db is not a SQLite database',
    hint: RESTART_RESTORES,
  },
  SQLITE_CANTOPEN: {
    message: 'Cannot open the Coffer database',
    hint: 'check that the Coffer home exists and is writable by your user',
  },
  SQLITE_PERM: {
    message: 'Permission denied on the Coffer database',
    hint: 'make coffer.db and its directory writable by your user',
  },
};

const genericAdvice: Advice = {
  message: 'Unexpected database error',
  hint: 'see logs/coffer.log for details',
};

function sqliteCode(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

function primaryCode(code: string): string {
  const match = /^SQLITE_[A-Z]+/.exec(code);
  return match === null ? code : match[0];
}

function isUniqueOnServerName(code: string, error: unknown): boolean {
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    error instanceof Error &&
    error.message.includes('mcp_servers.name')
  );
}

/**
 * The SQLite driver is a native module built for one Node.js ABI. Switching Node versions
 * (nvm, a system upgrade) after installing Coffer makes loading it fail: name that, since
 * "unexpected database error" would send the user looking at their data.
 */
function isNativeModuleMismatch(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === 'ERR_DLOPEN_FAILED' &&
    error.message.includes('NODE_MODULE_VERSION')
  );
}

function nativeModuleMismatch(error: unknown): CofferError {
  return new CofferError(
    'STORE_FAILURE',
    `Coffer's SQLite driver (better-sqlite3) was built for another Node.js version than this one (${process.version})`,
    {
      hint: 'run Coffer with the Node.js it was installed with, or reinstall it under this one (`npm rebuild better-sqlite3` in its folder)',
      cause: error,
    },
  );
}

/** Turns anything thrown by a store operation into a CofferError; CofferErrors pass through. */
export function translateStoreError(error: unknown, context: StoreErrorContext = {}): CofferError {
  if (error instanceof CofferError) return error;
  if (isNativeModuleMismatch(error)) return nativeModuleMismatch(error);
  const code = sqliteCode(error);
  if (code !== undefined && isUniqueOnServerName(code, error)) {
    return serverExists(context.server ?? '?');
  }
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' && context.server !== undefined) {
    // The server vanished between our lookup and the write (removed concurrently).
    return serverNotFound(context.server);
  }
  const advice = (code && adviceByPrimaryCode[primaryCode(code)]) || genericAdvice;
  return new CofferError('STORE_FAILURE', advice.message, {
    hint: advice.hint,
    cause: error,
    ...(code === undefined ? {} : { data: { sqlite_code: code } }),
  });
}

/** Runs a store operation with its errors translated at the boundary. */
export async function guarded<T>(context: StoreErrorContext, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw translateStoreError(error, context);
  }
}
