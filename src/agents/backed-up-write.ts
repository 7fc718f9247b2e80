import { writeProblem } from '../config/write-problems.js';
import { CofferError } from '../domain/errors.js';
import { pruneBackups } from './backup-pruning.js';
import { createBackup, discardBackup, type BackupInfo, type BackupReason } from './backups.js';
import { assertWritable, removeFile, writeFileAtomic } from './safe-files.js';
import type { Scope } from './types.js';

/**
 * Every change to an agent file: checked writable, backed up, then written (undefined:
 * the file removed), and that file's older backups pruned (backup-pruning.ts). A backup
 * is listed only for a write that can happen.
 */

export interface BackedUpChange {
  readonly agent: string;
  readonly scope: Scope;
  readonly path: string;
  readonly reason: BackupReason;
  /** The file now; undefined when there is none. */
  readonly before: string | undefined;
  /** The file afterwards; undefined removes it. */
  readonly after: string | undefined;
}

export function writeBackedUp(cofferHome: string, change: BackedUpChange, now: Date): BackupInfo {
  const { before, after, ...source } = change;
  if (before !== undefined) assertWritable(change.path);
  const backup = createBackup(cofferHome, { ...source, text: before }, now);
  try {
    if (after === undefined) removeFile(change.path);
    else writeFileAtomic(change.path, after);
  } catch (error) {
    discardBackup(cofferHome, backup.id);
    throw cannotWrite(change.path, error);
  }
  // The new backup is the newest: the records about to name it cannot lose it.
  try {
    pruneBackups(cofferHome, change.path);
  } catch {
    // Housekeeping only: the change is made, and the next write prunes again.
  }
  return backup;
}

/** An immutable file (chattr +i), a folder not the user's, a full disk: said, not "internal error". */
function cannotWrite(path: string, error: unknown): CofferError {
  return new CofferError('INVALID_INPUT', `Cannot write ${path}: ${writeProblem(error)}`, {
    hint: 'check the file and its folder (owner, permissions, chattr -i, free space); nothing was changed',
    data: { path },
    cause: error,
  });
}
