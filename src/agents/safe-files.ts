import { createHash, randomBytes } from 'node:crypto';
import { CofferError } from '../domain/errors.js';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes to users' agent config files. A write is atomic (temp file in the same
 * directory, flushed, then renamed over the original), so a crash never leaves half a
 * file; it keeps the file's permissions; and it follows a symlink to the real file, so
 * a config kept in a dotfiles repository stays linked.
 */

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function realTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function existingMode(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

export function writeFileAtomic(path: string, text: string): void {
  const target = realTarget(path);
  mkdirSync(dirname(target), { recursive: true });
  const temp = join(
    dirname(target),
    `.${basename(target)}.coffer-${process.pid}-${randomBytes(4).toString('hex')}.tmp`,
  );
  const mode = existingMode(target);
  const fd = openSync(temp, 'wx', mode ?? 0o666);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (mode !== undefined) chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
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
