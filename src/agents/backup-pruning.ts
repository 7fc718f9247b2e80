import { readState, type InstallRecord } from './agent-state.js';
import { discardBackup, listBackups } from './backups.js';

/**
 * Backups hold what an agent file held, tokens included, so they are not kept forever:
 * per file, the newest KEEP_NEWEST, the oldest (the file before Coffer first touched it),
 * and every backup a record of agents/state.json still names, which uninstall (the file
 * before Coffer, an entry --replace removed) and restore (an undone install brought back)
 * read. The others go, directory and record alike.
 */
export const KEEP_NEWEST = 10;

function namedByRecords(records: readonly InstallRecord[]): Set<string> {
  const ids = new Set<string>();
  for (const record of records) {
    if (record.backup_id !== undefined) ids.add(record.backup_id);
    for (const removed of record.removed) ids.add(removed.backup_id);
  }
  return ids;
}

/** Prunes the backups of the file at `path`; returns the ids it deleted. */
export function pruneBackups(cofferHome: string, path: string): string[] {
  const state = readState(cofferHome);
  const needed = namedByRecords([...state.installs, ...state.uninstalled]);
  // Newest first: the first KEEP_NEWEST and the last stay.
  const ofFile = listBackups(cofferHome).filter((backup) => backup.path === path);
  const pruned = ofFile
    .slice(KEEP_NEWEST, -1)
    .map((backup) => backup.id)
    .filter((id) => !needed.has(id));
  for (const id of pruned) discardBackup(cofferHome, id);
  return pruned;
}
