import { MAX_UNINSTALLED, updateState, type InstallRecord } from './agent-state.js';
import type { BackupInfo } from './backups.js';

/**
 * Restoring the backup an install took takes the file back to before that install, so
 * the state goes back too. Left as it was, the record kept the entries that install's
 * --replace removed, and a later uninstall put them back into a file whose user had
 * deleted them since (tokens included). Backup ids sort by time, so "that install and
 * every later one" is every record part at or after the restored backup.
 */
export function undoInstallsSince(
  cofferHome: string,
  backup: BackupInfo,
  restoredHash: string | undefined,
): void {
  if (backup.reason !== 'install') return;
  const since = (id: string) => id >= backup.id;
  updateState(cofferHome, (state) => {
    const mine = (record: InstallRecord) =>
      record.agent === backup.agent && record.path === backup.path;
    // Installs whose first backup is this one or later: the file is now as before them all.
    const undone = state.installs.filter(
      (record) => mine(record) && record.backup_id !== undefined && since(record.backup_id),
    );
    const installs = state.installs
      .filter((record) => !undone.includes(record))
      .map((record) =>
        mine(record)
          ? {
              ...record,
              removed: record.removed.filter((entry) => !since(entry.backup_id)),
              // The file is as the earlier install left it: uninstall may still be exact.
              ...(restoredHash === undefined ? {} : { after_sha256: restoredHash }),
            }
          : record,
      );
    return {
      ...state,
      installs,
      // As uninstall does: restoring the file those installs left brings them back.
      uninstalled: [...undone, ...state.uninstalled].slice(0, MAX_UNINSTALLED),
    };
  });
}
