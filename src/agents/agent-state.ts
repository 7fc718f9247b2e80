import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../config/private-files.js';
import { CofferError } from '../domain/errors.js';
import { isObject } from './entry-fields.js';
import type { ConfigLocation, Scope } from './types.js';

/**
 * What Coffer did to agent configs, in `<COFFER_HOME>/agents/state.json`: which entries
 * were imported (so `install --replace` removes exactly those, and only while they are
 * unchanged), and what each install changed (so `uninstall` can undo it). Names and
 * hashes only: entry contents stay in the backups.
 */

export interface ImportRecord {
  readonly agent: string;
  readonly path: string;
  readonly servers_key: readonly string[];
  /** The entry's name in the agent file. */
  readonly original: string;
  /** The Coffer server it became. */
  readonly server: string;
  /** entryFingerprint of the entry when imported: a changed entry is not removed. */
  readonly fingerprint: string;
  /** Secrets the daemon did not store; the entry keeps the only copy. */
  readonly secrets_pending: readonly string[];
  /** The entry's keys the import did not carry over (absent in older state files: none). */
  readonly not_carried_over?: readonly string[];
  readonly imported_at: string;
}

/** An entry install --replace removed, and the backup that still holds it. */
export interface RemovedEntry {
  readonly name: string;
  readonly backup_id: string;
}

export interface InstallRecord {
  readonly agent: string;
  readonly scope: Scope;
  readonly path: string;
  readonly servers_key: readonly string[];
  /**
   * The backup taken before the first install, while every later install found the file
   * as the previous one left it: then uninstall restores it byte for byte. Absent once
   * someone else changed the file in between; uninstall then edits entry by entry.
   */
  readonly backup_id?: string;
  /** sha256 of the file right after the last install. */
  readonly after_sha256: string;
  readonly removed: readonly RemovedEntry[];
  readonly installed_at: string;
}

export interface AgentState {
  readonly imports: readonly ImportRecord[];
  readonly installs: readonly InstallRecord[];
  /** Undone installs: restoring the file they left brings them back (restore undoes uninstall). */
  readonly uninstalled: readonly InstallRecord[];
}

/** Enough undo history for people, small enough to read on every command. */
export const MAX_UNINSTALLED = 50;

export function statePath(cofferHome: string): string {
  return join(cofferHome, 'agents', 'state.json');
}

export function readState(cofferHome: string): AgentState {
  const path = statePath(cofferHome);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { imports: [], installs: [], uninstalled: [] };
  }
  try {
    const value: unknown = JSON.parse(text);
    if (!isObject(value)) throw new Error('not an object');
    const list = <T>(key: string): T[] => (Array.isArray(value[key]) ? (value[key] as T[]) : []);
    return {
      imports: list<ImportRecord>('imports'),
      installs: list<InstallRecord>('installs'),
      uninstalled: list<InstallRecord>('uninstalled'),
    };
  } catch (error) {
    throw new CofferError('INTERNAL', `Cannot read ${path}`, {
      hint: 'move the file aside; Coffer then forgets earlier imports and installs',
      cause: error,
    });
  }
}

export function writeState(cofferHome: string, state: AgentState): void {
  writePrivateFile(statePath(cofferHome), `${JSON.stringify(state, null, 2)}\n`);
}

interface Located {
  readonly path: string;
  readonly servers_key: readonly string[];
}

export function isAt(
  record: Located,
  location: Pick<ConfigLocation, 'path' | 'serversKey'>,
): boolean {
  return (
    record.path === location.path &&
    record.servers_key.length === location.serversKey.length &&
    record.servers_key.every((part, index) => part === location.serversKey[index])
  );
}

export function updateState(cofferHome: string, change: (state: AgentState) => AgentState): void {
  writeState(cofferHome, change(readState(cofferHome)));
}
