import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, writePrivateFile } from '../config/private-files.js';
import { CofferError } from '../domain/errors.js';
import { isObject } from './entry-fields.js';
import type { Scope } from './types.js';

/**
 * A timestamped copy of an agent config taken before every write, under
 * `<COFFER_HOME>/agents/backups/<id>/`. Agent files often hold tokens, so backups are
 * private (0700 directories, 0600 files) like the rest of Coffer's home. A backup of a
 * file that did not exist records just that, so restoring it removes the file.
 */

export type BackupReason = 'install' | 'uninstall' | 'restore';

export interface BackupInfo {
  readonly id: string;
  readonly agent: string;
  readonly scope: Scope;
  readonly path: string;
  readonly existed: boolean;
  readonly reason: BackupReason;
  readonly created_at: string;
}

export function backupsDir(cofferHome: string): string {
  return join(cofferHome, 'agents', 'backups');
}

function compactStamp(time: Date): string {
  return time.toISOString().replace(/[-:.]/g, '');
}

/** `20250102T030405678Z` back to a Date. */
function stampTime(stamp: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z/.exec(stamp);
  if (m === null) return 0;
  return Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${m[7]}Z`);
}

/**
 * Sortable by time, `20250102T030405678Z-cursor-1a2b`, and strictly after the newest
 * backup: "the latest backup" must be well defined even for changes in one millisecond.
 */
function newBackupId(cofferHome: string, agent: string, now: Date): { id: string; time: Date } {
  const root = backupsDir(cofferHome);
  const newest = existsSync(root) ? readdirSync(root).sort().pop() : undefined;
  const floor = newest === undefined ? 0 : stampTime(newest) + 1;
  const time = new Date(Math.max(now.getTime(), floor));
  return { id: `${compactStamp(time)}-${agent}-${randomBytes(2).toString('hex')}`, time };
}

export function createBackup(
  cofferHome: string,
  source: Omit<BackupInfo, 'id' | 'created_at' | 'existed'> & { readonly text: string | undefined },
  now: Date = new Date(),
): BackupInfo {
  const { id, time } = newBackupId(cofferHome, source.agent, now);
  const dir = join(backupsDir(cofferHome), id);
  ensurePrivateDir(dir);
  const info: BackupInfo = {
    id,
    agent: source.agent,
    scope: source.scope,
    path: source.path,
    existed: source.text !== undefined,
    reason: source.reason,
    created_at: time.toISOString(),
  };
  if (source.text !== undefined) writePrivateFile(join(dir, 'content'), source.text);
  writePrivateFile(join(dir, 'backup.json'), `${JSON.stringify(info, null, 2)}\n`);
  return info;
}

/** Forgets a backup of a change that did not happen. */
export function discardBackup(cofferHome: string, id: string): void {
  rmSync(join(backupsDir(cofferHome), id), { recursive: true, force: true });
}

function readInfo(dir: string): BackupInfo | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(join(dir, 'backup.json'), 'utf8'));
    if (!isObject(value) || typeof value['id'] !== 'string' || typeof value['path'] !== 'string')
      return undefined;
    return value as unknown as BackupInfo;
  } catch {
    // A half-written or foreign directory is not a backup.
    return undefined;
  }
}

/** Newest first; optionally one agent's. */
export function listBackups(cofferHome: string, agent?: string): BackupInfo[] {
  const root = backupsDir(cofferHome);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort()
    .reverse()
    .map((name) => readInfo(join(root, name)))
    .filter((info): info is BackupInfo => info !== undefined)
    .filter((info) => agent === undefined || info.agent === agent);
}

export function readBackup(
  cofferHome: string,
  id: string,
): { readonly info: BackupInfo; readonly text: string | undefined } {
  const dir = join(backupsDir(cofferHome), id);
  const info = /^[\w.-]+$/.test(id) ? readInfo(dir) : undefined;
  if (info === undefined) {
    throw new CofferError('NOT_FOUND', `No backup "${id}"`, {
      hint: 'list them with `coffer agents backups`',
    });
  }
  return { info, text: info.existed ? readFileSync(join(dir, 'content'), 'utf8') : undefined };
}
