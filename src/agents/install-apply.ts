import { isAt, updateState, type InstallRecord } from './agent-state.js';
import { writeBackedUp } from './backed-up-write.js';
import type { BackupInfo } from './backups.js';
import { COFFER_ENTRY, planChanges, type InstallPlan } from './install-plan.js';
import { assertUnchangedSince, sha256 } from './safe-files.js';

/**
 * Carries out an install plan: backup, atomic write, and a record of what changed so
 * uninstall can return to the file as it was.
 */

export interface ApplyResult {
  readonly changed: boolean;
  readonly backup?: BackupInfo;
}

function nextRecord(
  previous: InstallRecord | undefined,
  plan: InstallPlan,
  backup: BackupInfo,
  now: Date,
): InstallRecord {
  // The chain back to the first backup holds only while nobody else touched the file.
  const chainIntact = previous === undefined || previous.after_sha256 === sha256(plan.before);
  const base = previous === undefined ? backup.id : chainIntact ? previous.backup_id : undefined;
  // An HTTP "coffer" entry the shim entry replaced comes back with uninstall, as removed ones do.
  const replaced = plan.overHttp.includes(COFFER_ENTRY) ? [COFFER_ENTRY] : [];
  const removed = [
    ...(previous?.removed ?? []),
    ...[...plan.removed, ...replaced].map((name) => ({ name, backup_id: backup.id })),
  ];
  return {
    agent: plan.agent.id,
    scope: plan.location.scope,
    path: plan.location.path,
    servers_key: plan.location.serversKey,
    ...(base === undefined ? {} : { backup_id: base }),
    after_sha256: sha256(plan.after),
    removed,
    installed_at: now.toISOString(),
  };
}

export function applyInstall(cofferHome: string, plan: InstallPlan, now = new Date()): ApplyResult {
  if (!planChanges(plan)) return { changed: false };
  const { location } = plan;
  const before = plan.exists ? plan.before : undefined;
  assertUnchangedSince(location.path, before);
  const backup = writeBackedUp(
    cofferHome,
    {
      agent: plan.agent.id,
      scope: location.scope,
      path: location.path,
      reason: 'install',
      before,
      after: plan.after,
    },
    now,
  );
  updateState(cofferHome, (state) => {
    const mine = (record: InstallRecord) =>
      record.agent === plan.agent.id && isAt(record, location);
    const previous = state.installs.find(mine);
    const others = state.installs.filter((record) => !mine(record));
    return { ...state, installs: [...others, nextRecord(previous, plan, backup, now)] };
  });
  return { changed: true, backup };
}
