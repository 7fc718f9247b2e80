import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { realTarget } from '../config/user-file.js';
import { CofferError } from '../domain/errors.js';

/** Agent config files: read, checked unchanged, written (src/config/user-file.ts), removed. */
export { writeFileAtomic } from '../config/user-file.js';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Removes a config file Coffer created (restoring "there was no file"). */
export function removeFile(path: string): void {
  rmSync(realTarget(path), { force: true });
}

/** The file's text, or undefined when there is no file. */
export function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new CofferError('INVALID_INPUT', `Cannot read ${path} (${code ?? 'unknown error'})`, {
      cause: error,
    });
  }
}

/** Refuses to write over a file that changed since it was read (an agent saving it). */
export function assertUnchangedSince(path: string, expected: string | undefined): void {
  if (readIfExists(path) === expected) return;
  throw new CofferError('INVALID_INPUT', `${path} changed while Coffer was editing it`, {
    hint: 'run the command again; nothing was written',
  });
}

/**
 * Refuses a file the user made read-only: the atomic rename would replace it all the
 * same. The mode bits decide, not access(): as root, access() says yes to anything.
 */
export function assertWritable(path: string): void {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return; // No file yet: it is created, and a folder problem shows on the write.
  }
  if ((mode & 0o200) !== 0) return;
  throw new CofferError('INVALID_INPUT', `${path} is read-only, so Coffer leaves it alone`, {
    hint: `chmod u+w ${path} lets Coffer change it; nothing was written`,
    data: { path },
  });
}
