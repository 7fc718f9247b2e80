import { CofferError } from '../domain/errors.js';
import { writeBackedUp } from './backed-up-write.js';
import { listBackups, readBackup, type BackupInfo } from './backups.js';
import { undoInstallsSince } from './restore-state.js';
import { isAt, readState, updateState, type InstallRecord } from './agent-state.js';
import { readIfExists, sha256 } from './safe-files.js';
import type { AgentDefinition, Scope } from './types.js';

/**
 * `coffer agents restore`: puts a backup back, byte for byte (or removes the file when
 * the backup records that there was none). The file as it is now is backed up first,
 * so a restore can itself be undone. A malformed file can be restored over: that is
 * what backups are for.
 */

/**
 * Restoring the file an install left (undoing an uninstall) makes that install current
 * again, so a later uninstall still returns to the file before Coffer.
 */
function reinstate(cofferHome: string, path: string, hash: string): void {
  updateState(cofferHome, (state) => {
    const match = (record: InstallRecord) => record.path === path && record.after_sha256 === hash;
    const back = state.uninstalled.filter(match);
    if (back.length === 0) return state;
    const replaced = (record: InstallRecord) =>
      back.some(
        (other) =>
          other.agent === record.agent &&
          isAt(record, { path: other.path, serversKey: other.servers_key }),
      );
    return {
      ...state,
      installs: [...state.installs.filter((record) => !replaced(record)), ...back],
      uninstalled: state.uninstalled.filter((record) => !match(record)),
    };
  });
}

export interface RestorePlan {
  readonly backup: BackupInfo;
  readonly before: string | undefined;
  readonly after: string | undefined;
  /** The backup was taken before an install Coffer still counts: the restore undoes it. */
  readonly undoesInstall: boolean;
}

export interface RestoreOptions {
  readonly backupId?: string;
  readonly scope?: Scope;
}

function chooseBackup(
  cofferHome: string,
  agent: AgentDefinition,
  options: RestoreOptions,
): BackupInfo {
  if (options.backupId !== undefined) {
    const { info } = readBackup(cofferHome, options.backupId);
    if (info.agent !== agent.id) {
      throw new CofferError(
        'INVALID_INPUT',
        `Backup ${info.id} belongs to ${info.agent}, not ${agent.id}`,
      );
    }
    return info;
  }
  const latest = listBackups(cofferHome, agent.id).find(
    (info) => options.scope === undefined || info.scope === options.scope,
  );
  if (latest === undefined) {
    throw new CofferError('NOT_FOUND', `No backups of ${agent.displayName} yet`, {
      hint: 'Coffer takes one before every change it makes to an agent file',
    });
  }
  return latest;
}

export function planRestore(
  cofferHome: string,
  agent: AgentDefinition,
  options: RestoreOptions = {},
): RestorePlan {
  const backup = chooseBackup(cofferHome, agent, options);
  const { text } = readBackup(cofferHome, backup.id);
  const undoesInstall =
    backup.reason === 'install' &&
    readState(cofferHome).installs.some(
      (record) => record.agent === backup.agent && record.path === backup.path,
    );
  return { backup, before: readIfExists(backup.path), after: text, undoesInstall };
}

export function applyRestore(
  cofferHome: string,
  plan: RestorePlan,
  now = new Date(),
): BackupInfo | undefined {
  if (plan.before === plan.after) return undefined;
  const { backup } = plan;
  const safety = writeBackedUp(
    cofferHome,
    {
      agent: backup.agent,
      scope: backup.scope,
      path: backup.path,
      reason: 'restore',
      before: plan.before,
      after: plan.after,
    },
    now,
  );
  const restoredHash = plan.after === undefined ? undefined : sha256(plan.after);
  undoInstallsSince(cofferHome, backup, restoredHash);
  if (restoredHash !== undefined) reinstate(cofferHome, backup.path, restoredHash);
  return safety;
}
