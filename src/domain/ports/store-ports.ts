/** Ports the store implements (src/store): servers, preferences, activity, process records. */
import type { CapabilityPreference, CapabilityType } from '../capability.js';
import type { ServerDefinition, ServerRecord } from '../server-definition.js';
import type { HeldTool, PinRecord, PinState } from '../tool-pin.js';
import type { ServerPolicies, ToolPolicy } from '../tool-policy.js';
import type { JsonObject } from './upstream-port.js';

/** Editable fields of a server; the name is its identity and cannot change. */
export type ServerPatch = Partial<Omit<ServerDefinition, 'name'>>;

export interface ServerRepository {
  list(): Promise<ServerRecord[]>;
  /** undefined when no server has that name. */
  get(name: string): Promise<ServerRecord | undefined>;
  /** Throws SERVER_EXISTS when the name is taken. */
  create(definition: ServerDefinition): Promise<ServerRecord>;
  /** Throws SERVER_NOT_FOUND. */
  update(name: string, patch: ServerPatch): Promise<ServerRecord>;
  /**
   * Throws what create or update would for the definition's content (the guards in front
   * of the store: a credential as a plain value, Coffer's own URL), writing nothing: a
   * config import checks every server before it writes one.
   */
  check(definition: ServerDefinition): void;
  /** Throws SERVER_NOT_FOUND. Preferences go with it (ON DELETE CASCADE). */
  remove(name: string): Promise<void>;
}

export interface PreferenceRepository {
  /**
   * Called after each successful list (ADR-004): inserts keys not seen before (enabled
   * per `autoEnable`), sets last_seen_at on every listed key, keeps vanished keys.
   * Returns whether each listed key is enabled.
   */
  reconcile(
    server: string,
    type: CapabilityType,
    keys: readonly string[],
    autoEnable: boolean,
  ): Promise<ReadonlyMap<string, boolean>>;
  list(server: string, type?: CapabilityType): Promise<CapabilityPreference[]>;
  /** undefined when the key was never seen nor set. */
  isEnabled(server: string, type: CapabilityType, key: string): Promise<boolean | undefined>;
  /** Upserts: a capability may be disabled before it was ever listed. Returns rows changed. */
  setEnabled(
    server: string,
    type: CapabilityType,
    keys: readonly string[],
    enabled: boolean,
  ): Promise<number>;
}

export type ActivityOutcome = 'ok' | 'error';

/** The user's approval policies (issue 20): per tool, and per server for destructive tools. */
export interface ToolPolicyRepository {
  forServer(server: string): Promise<ServerPolicies>;
  /** `null` forgets the tool's own policy: its annotations decide again. */
  setTool(server: string, key: string, policy: ToolPolicy | null): Promise<void>;
  setDestructive(server: string, policy: ToolPolicy): Promise<void>;
}

/** One definition to pin or to record as a change. */
export interface PinnedEntry {
  readonly key: string;
  readonly hash: string;
  readonly definition: JsonObject;
}

/**
 * Tool pins (issue 20): the definition each tool had when the user allowed it, and the
 * different one seen since, if any. Keyed by server name at the port.
 */
export interface ToolPinRepository {
  /** Every pin of the server, without definitions: what one list is compared with. */
  states(server: string): Promise<ReadonlyMap<string, PinState>>;
  /** Pins tools not pinned yet (a pin never changes here); returns the stored hashes. */
  pin(server: string, entries: readonly PinnedEntry[]): Promise<ReadonlyMap<string, string>>;
  /** Records a changed definition; false when that very change was already recorded. */
  markChanged(server: string, entry: PinnedEntry): Promise<boolean>;
  /** The tool lists its pinned definition again: the recorded change is forgotten. */
  clearChanged(server: string, key: string): Promise<void>;
  /** Tools with a change waiting for review, both definitions each. */
  held(server: string): Promise<HeldTool[]>;
  /** The recorded changes become the pins (all, or `key`'s); returns the keys accepted. */
  accept(server: string, key?: string): Promise<string[]>;
}

/**
 * The pins of every server at once, for the snapshot a damaged database is restored from
 * (docs/RECOVERY.md): read whole, and written back into a new database.
 */
export interface PinArchive {
  /** Every server's pins, by server name. */
  all(): Promise<ReadonlyMap<string, readonly PinRecord[]>>;
  /** Writes a server's pins back; a tool already pinned keeps its pin. */
  restore(server: string, records: readonly PinRecord[]): Promise<void>;
}

export interface ActivityEntry {
  readonly at: string;
  readonly trace_id: string | null;
  readonly session_id: string | null;
  readonly client_name: string | null;
  readonly client_version: string | null;
  readonly server: string | null;
  /** tool, prompt, resource, or `admin` for management actions. */
  readonly capability_type: string;
  readonly capability_key: string | null;
  /** e.g. tools/call, server.add */
  readonly action: string;
  readonly duration_ms: number | null;
  readonly outcome: ActivityOutcome;
  readonly error_code: string | null;
  /**
   * What the secret guard did to a call (issue 20.3): `secret_blocked`,
   * `credential_flagged`, `credential_blocked` or `redacted`, comma-separated when
   * several; null or absent when nothing. Never what was found.
   */
  readonly guard?: string | null;
}

export interface ActivityQuery {
  readonly server?: string;
  readonly since?: string;
  readonly outcome?: ActivityOutcome;
  /** Only rows the guard acted on: `any`, or one guard event. */
  readonly guard?: string;
  readonly limit?: number;
  /** Rows with an id below this (paging backwards in time). */
  readonly before_id?: number;
}

export interface ActivityRepository {
  append(entries: readonly ActivityEntry[]): Promise<void>;
  query(query: ActivityQuery): Promise<(ActivityEntry & { id: number })[]>;
  /** Deletes rows older than `olderThan` and beyond the newest `keepRows`. Returns rows deleted. */
  prune(olderThan: string, keepRows: number): Promise<number>;
}

export interface UpstreamProcessRecord {
  readonly pid: number;
  /** Process start time as the OS reports it (Linux: /proc/<pid>/stat field 22). */
  readonly start_time: string;
  readonly command_line: string;
  readonly server: string;
  readonly session_id: string | null;
}

export interface UpstreamProcessRepository {
  record(entry: UpstreamProcessRecord): Promise<void>;
  remove(pid: number): Promise<void>;
  list(): Promise<UpstreamProcessRecord[]>;
  clear(): Promise<void>;
}

/**
 * Where calls and admin actions are recorded. `record` must never throw nor block the
 * request: implementations batch writes off the hot path.
 */
export interface ActivitySink {
  record(entry: ActivityEntry): void;
}
