import {
  isAt,
  MAX_UNINSTALLED,
  readState,
  updateState,
  type InstallRecord,
} from './agent-state.js';
import { writeBackedUp } from './backed-up-write.js';
import { readBackup, type BackupInfo } from './backups.js';
import type { ConfigDocument } from './documents/config-document.js';
import { documentFromText, requireConfig } from './documents/load-document.js';
import { COFFER_ENTRY, isCofferEntry } from './install-plan.js';
import { assertUnchangedSince, readIfExists, sha256 } from './safe-files.js';
import type { AgentDefinition, ConfigLocation } from './types.js';

/**
 * `coffer agents uninstall`: the agent file as it was before Coffer. When the file is
 * exactly as the last install left it, that is the first backup, byte for byte (or no
 * file, if Coffer created it). Otherwise (the agent or the user changed it since) the
 * `coffer` entry is removed and the entries --replace took out are put back, and every
 * other change is kept.
 */

export interface UninstallPlan {
  readonly agent: AgentDefinition;
  readonly location: ConfigLocation;
  /** The file now; undefined when there is none. */
  readonly before: string | undefined;
  /** The file afterwards; undefined means "no file". */
  readonly after: string | undefined;
  readonly exact: boolean;
  readonly removedEntry: boolean;
  readonly restored: readonly string[];
  readonly record?: InstallRecord;
}

export function uninstallChanges(plan: UninstallPlan): boolean {
  return plan.before !== plan.after;
}

function recordFor(cofferHome: string, agent: AgentDefinition, location: ConfigLocation) {
  return readState(cofferHome).installs.find(
    (record) => record.agent === agent.id && isAt(record, location),
  );
}

function entryFromBackup(
  cofferHome: string,
  backupId: string,
  location: ConfigLocation,
  name: string,
): unknown {
  try {
    const { text } = readBackup(cofferHome, backupId);
    if (text === undefined) return undefined;
    return documentFromText(text, location.format).servers(location.serversKey)?.[name];
  } catch {
    // A pruned or unreadable backup: that entry cannot come back; the rest still does.
    return undefined;
  }
}

function structural(
  cofferHome: string,
  agent: AgentDefinition,
  location: ConfigLocation,
  record: InstallRecord | undefined,
) {
  let document: ConfigDocument = requireConfig(location).document;
  const servers = document.servers(location.serversKey) ?? {};
  const current = servers[COFFER_ENTRY];
  const removedEntry = current !== undefined && isCofferEntry(agent, current);
  if (removedEntry) document = document.withoutServer(location.serversKey, COFFER_ENTRY);
  const restored: string[] = [];
  for (const { name, backup_id } of record?.removed ?? []) {
    // Checked against the file without the shim entry: a "coffer" entry it replaced comes back.
    if (document.servers(location.serversKey)?.[name] !== undefined) continue;
    const raw = entryFromBackup(cofferHome, backup_id, location, name);
    if (raw === undefined) continue;
    document = document.withServer(location.serversKey, name, raw);
    restored.push(name);
  }
  return { after: document.text, removedEntry, restored };
}

export function planUninstall(
  cofferHome: string,
  agent: AgentDefinition,
  location: ConfigLocation,
): UninstallPlan {
  const record = recordFor(cofferHome, agent, location);
  const before = readIfExists(location.path);
  const base = { agent, location, before, ...(record === undefined ? {} : { record }) };
  if (
    record?.backup_id !== undefined &&
    before !== undefined &&
    sha256(before) === record.after_sha256
  ) {
    const { text } = readBackup(cofferHome, record.backup_id);
    const restored = record.removed.map((entry) => entry.name);
    return { ...base, after: text, exact: true, removedEntry: true, restored };
  }
  if (before === undefined)
    return { ...base, after: undefined, exact: false, removedEntry: false, restored: [] };
  const { after, removedEntry, restored } = structural(cofferHome, agent, location, record);
  return { ...base, after, exact: false, removedEntry, restored };
}

export function applyUninstall(
  cofferHome: string,
  plan: UninstallPlan,
  now = new Date(),
): BackupInfo | undefined {
  const { agent, location } = plan;
  let backup: BackupInfo | undefined;
  if (uninstallChanges(plan)) {
    assertUnchangedSince(location.path, plan.before);
    backup = writeBackedUp(
      cofferHome,
      {
        agent: agent.id,
        scope: location.scope,
        path: location.path,
        reason: 'uninstall',
        before: plan.before,
        after: plan.after,
      },
      now,
    );
  }
  updateState(cofferHome, (state) => {
    const mine = (record: InstallRecord) => record.agent === agent.id && isAt(record, location);
    return {
      ...state,
      installs: state.installs.filter((record) => !mine(record)),
      uninstalled: [...state.installs.filter(mine), ...state.uninstalled].slice(0, MAX_UNINSTALLED),
    };
  });
  return backup;
}
