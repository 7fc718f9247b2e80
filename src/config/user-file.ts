import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file of the user's (an agent's config, an export in their dotfiles). A write
 * is atomic (temp file in the same directory, flushed, then renamed over the original),
 * so a crash or a full disk never leaves half a file; it keeps the file's permissions;
 * and it follows a symlink to the real file, so a file kept in a dotfiles repository
 * stays linked.
 */

/** The file a path names, through a symlink (a dotfiles repository's). */
export function realTarget(path: string): string {
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

export interface WriteOptions {
  /** Create the file's folder when it is missing (default); false: fail with ENOENT. */
  readonly createFolder?: boolean;
}

export function writeFileAtomic(path: string, text: string, options: WriteOptions = {}): void {
  const target = realTarget(path);
  if (options.createFolder !== false) mkdirSync(dirname(target), { recursive: true });
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
