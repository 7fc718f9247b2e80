import { CofferError } from '../domain/errors.js';

/**
 * The Coffer home could not be created, made private or written: the daemon cannot run
 * there. Said once for the daemon and for the clients that spawn it, in words that name
 * the likely cause (a home left owned by root after `sudo coffer …`, a read-only mount,
 * a full disk) and what to do, instead of an internal error.
 */
export function homeAccessError(home: string, error: unknown): CofferError {
  if (error instanceof CofferError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
  if (code === 'ENOTDIR' || code === 'EEXIST')
    return new CofferError(
      'STORE_FAILURE',
      `Cannot use the Coffer home ${home}: it, or a folder above it, is a file (${code})`,
      {
        hint: 'set COFFER_HOME to a folder (Coffer creates it if it is not there), or unset it to use ~/.coffer',
        cause: error,
      },
    );
  const why =
    code === 'EACCES' || code === 'EPERM'
      ? 'your user may not write to it'
      : code === 'EROFS'
        ? 'it is on a read-only file system'
        : code === 'ENOSPC' || code === 'EDQUOT'
          ? 'the disk is full'
          : 'it could not be written';
  return new CofferError('STORE_FAILURE', `Cannot use the Coffer home ${home}: ${why} (${code})`, {
    hint: `make it a writable directory of your own (e.g. \`sudo chown -R "$(id -un)" ${home}\`), or set COFFER_HOME to another one`,
    cause: error,
  });
}

/** Runs `prepare` (mkdir, chmod, lock file, …), turning a file system failure into homeAccessError. */
export function withHomeAccess<T>(home: string, prepare: () => T): T {
  try {
    return prepare();
  } catch (error) {
    throw homeAccessError(home, error);
  }
}
