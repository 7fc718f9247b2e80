import { isAt, readState, updateState, type ImportRecord } from './agent-state.js';
import type { ImportItem } from './import-plan.js';
import type { AgentDefinition, ConfigLocation } from './types.js';

/**
 * Remembering what was imported from which file, once the daemon has it: this is what
 * `install --replace` removes later, and what a second import recognises.
 */

export interface ImportedItem {
  readonly item: ImportItem;
  /** Secret names the daemon did not store (the agent file keeps the only copy). */
  readonly pending: readonly string[];
}

export function recordImports(
  cofferHome: string,
  agent: AgentDefinition,
  location: ConfigLocation,
  imported: readonly ImportedItem[],
  now: Date = new Date(),
): void {
  if (imported.length === 0) return;
  const records: ImportRecord[] = imported.map(({ item, pending }) => ({
    agent: agent.id,
    path: location.path,
    servers_key: location.serversKey,
    original: item.original,
    server: item.server,
    fingerprint: item.fingerprint,
    secrets_pending: pending,
    ...(item.dropped === undefined ? {} : { not_carried_over: item.dropped }),
    imported_at: now.toISOString(),
  }));
  const replaced = new Set(records.map((record) => record.original));
  updateState(cofferHome, (state) => ({
    ...state,
    imports: [
      ...state.imports.filter((old) => !(isAt(old, location) && replaced.has(old.original))),
      ...records,
    ],
  }));
}

/** Entries imported from this file before: original name → Coffer server name. */
export function importedFrom(cofferHome: string, location: ConfigLocation): Map<string, string> {
  const records = readState(cofferHome).imports.filter((record) => isAt(record, location));
  return new Map(records.map((record) => [record.original, record.server]));
}
