/**
 * Ports: the small interfaces the inner layers need and the outer layers implement.
 * The daemon (composition root) wires the implementations: the store implements the
 * repositories, src/upstream implements UpstreamConnector, the gateway implements
 * SessionNotifier. Layers above the domain depend on these, never on each other.
 */
import type { CapabilityPreference, CapabilityType } from './capability.js';
import type { ServerDefinition, ServerRecord } from './server-definition.js';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

// ── Store ports ──────────────────────────────────────────────────────────────

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
}

export interface ActivityQuery {
  readonly server?: string;
  readonly since?: string;
  readonly outcome?: ActivityOutcome;
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

// ── Upstream port ────────────────────────────────────────────────────────────

/** A JSON-RPC params or result object, relayed verbatim. */
export type JsonObject = Record<string, unknown>;

export interface UpstreamRequestOptions {
  readonly signal?: AbortSignal;
  /** Idle timeout: reset by each progress notification. */
  readonly timeoutMs?: number;
  /** Called synchronously for each progress notification of this request. */
  readonly onProgress?: (params: JsonObject) => void;
}

/** What an upstream may ask of the client that owns its session. */
export interface UpstreamPeer {
  /** Server→client requests (roots/list, sampling/createMessage, elicitation/create). */
  request(method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<JsonObject>;
  /** Notifications other than progress (list_changed, resources/updated, message, …). */
  notify(method: string, params: JsonObject | undefined): void;
}

export interface UpstreamConnectContext {
  /** The downstream client's declared capabilities: only these are declared upstream. */
  readonly clientCapabilities: JsonObject;
  readonly peer: UpstreamPeer;
  readonly sessionId: string | null;
  /** Aborts a connect still in progress (the session closed meanwhile). */
  readonly signal?: AbortSignal;
}

export interface UpstreamConnection {
  readonly server: string;
  /** What the upstream declared at initialize. */
  readonly serverCapabilities: JsonObject;
  /** Resolves the JSON-RPC result verbatim; rejects with a CofferError or an UpstreamRpcError. */
  request(
    method: string,
    params: JsonObject | undefined,
    options?: UpstreamRequestOptions,
  ): Promise<JsonObject>;
  notify(method: string, params: JsonObject | undefined): Promise<void>;
  close(): Promise<void>;
  /** Resolves when the connection ends, for whatever reason. */
  readonly closed: Promise<void>;
}

export interface UpstreamConnector {
  /** Spawns or dials the upstream and completes its initialize handshake. */
  connect(
    definition: ServerDefinition,
    context: UpstreamConnectContext,
  ): Promise<UpstreamConnection>;
}

/** A JSON-RPC error answered by an upstream: relayed to the client unchanged. */
export class UpstreamRpcError extends Error {
  override readonly name = 'UpstreamRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

// ── Gateway port ─────────────────────────────────────────────────────────────

/** Lets the admin side tell live sessions that what they show has changed. */
export interface SessionNotifier {
  /** Drops cached lists of `server` in every session and sends list_changed. */
  capabilitiesChanged(server: string): void;
  /** A server was added, removed, enabled or disabled. */
  serversChanged(): void;
}

// ── Admin view of capabilities (implemented by the gateway's catalog) ───────

export type ServerState = 'idle' | 'running' | 'error' | 'crash-loop' | 'disabled';

export interface ServerStatus {
  readonly state: ServerState;
  readonly last_error: {
    readonly code: string;
    readonly message: string;
    readonly at: string;
  } | null;
  /** Counts from the last successful list; null until one succeeded. */
  readonly counts: {
    readonly tools: number;
    readonly prompts: number;
    readonly resources: number;
  } | null;
}

/** One capability as the admin side shows it: live fields plus the preference. */
export interface CapabilityView {
  readonly key: string;
  readonly enabled: boolean;
  /** The upstream's own definition (name, title, description, inputSchema, …), verbatim. */
  readonly definition: JsonObject | null;
}

/** `could-not-load` is not `empty`: the UI and CLI must tell them apart (ADR-004). */
export type CapabilityListing =
  | { readonly status: 'ok'; readonly items: readonly CapabilityView[] }
  | {
      readonly status: 'could-not-load';
      readonly error: { readonly code: string; readonly message: string };
      /** Known keys from preferences, so the user still sees names and switches. */
      readonly items: readonly CapabilityView[];
    }
  | { readonly status: 'not-supported'; readonly items: readonly CapabilityView[] };

export interface ServerCapabilities {
  readonly tools: CapabilityListing;
  readonly prompts: CapabilityListing;
  readonly resources: CapabilityListing;
  readonly resource_templates: CapabilityListing;
}

export interface ConnectionTestResult {
  readonly ok: boolean;
  readonly latency_ms: number;
  readonly counts?: {
    readonly tools: number;
    readonly prompts: number;
    readonly resources: number;
  };
  readonly error?: { readonly code: string; readonly message: string };
}

export interface CapabilityCatalog {
  status(server: string): ServerStatus;
  /** Live lists through the admin connection, reconciled with preferences. */
  capabilities(server: string, options?: { refresh?: boolean }): Promise<ServerCapabilities>;
  /** A fresh temporary connection: never reuses nor disturbs live ones. */
  testConnection(server: string): Promise<ConnectionTestResult>;
  /** Drops cached lists and connections of `server` everywhere (admin and sessions). */
  refresh(server: string): Promise<void>;
  /** The server's definition changed or it was removed: close what is connected to it. */
  forget(server: string): Promise<void>;
}

// ── Tool search (implemented by the gateway, same ranking as coffer__search_tools) ──

export interface ToolSearchQuery {
  readonly query: string;
  readonly limit: number;
  /** Only tools of this server. */
  readonly server?: string;
}

export interface ToolSearchHit {
  /** The name agents call it by through `/mcp` (`<server>__<name>`). */
  readonly name: string;
  readonly server: string;
  /** The upstream's own name. */
  readonly tool: string;
  readonly title?: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  /** Relative to the other hits of the same search only. */
  readonly score: number;
}

export interface ToolSearchResult {
  readonly tools: readonly ToolSearchHit[];
  /** Enabled servers whose tools could not be listed: not searched, not "no match". */
  readonly unavailable: readonly {
    readonly server: string;
    readonly code: string;
    readonly message: string;
  }[];
}

/** Ranks the enabled tools of every enabled server (`GET /api/v1/tools/search`). */
export interface ToolSearch {
  search(query: ToolSearchQuery): Promise<ToolSearchResult>;
}

/**
 * Where calls and admin actions are recorded. `record` must never throw nor block the
 * request: implementations batch writes off the hot path.
 */
export interface ActivitySink {
  record(entry: ActivityEntry): void;
}

// ── Credentials port (implemented by src/credentials) ───────────────────────

export type SecretKind = 'env' | 'header';

/** Which secret: the value of env var / header `name` of server `server`. Never the value. */
export interface SecretRef {
  readonly server: string;
  readonly kind: SecretKind;
  readonly name: string;
}

/** Where secrets are kept, safe to show: never a value. */
export interface SecretBackendInfo {
  readonly backend: 'keychain' | 'file';
  /** The fallback file, when backend is `file`. */
  readonly location?: string;
  /** Why the OS keychain is not used, when backend is `file`. */
  readonly reason?: string;
}

/**
 * The user's secrets, kept in the OS keychain (or the 0600 fallback file). Values go
 * in through `set` and out through `get` only, to be handed to an upstream at spawn or
 * connect time; they are never stored elsewhere, logged or answered by the API.
 */
export interface SecretStore {
  /** Picks the backend on first use (a real probe); later calls reuse it. */
  backend(): Promise<SecretBackendInfo>;
  /** undefined when the secret is not set. */
  get(ref: SecretRef): Promise<string | undefined>;
  set(ref: SecretRef, value: string): Promise<void>;
  /** False when there was nothing to delete. */
  delete(ref: SecretRef): Promise<boolean>;
  /** Names of every stored secret, never values. */
  list(): Promise<SecretRef[]>;
}

// ── Daemon events (implemented by src/daemon/event-bus.ts) ──────────────────

/**
 * What changed in the daemon, pushed to the web UI over server-sent events so it never
 * has to poll. Names only and states, never a definition or a secret: a listener that
 * needs details asks the API.
 */
export type DaemonEvent =
  | { readonly type: 'server.added' | 'server.removed' | 'server.changed'; readonly server: string }
  | {
      readonly type: 'capability.toggled';
      readonly server: string;
      readonly capability_type: CapabilityType;
      readonly keys: readonly string[];
      readonly enabled: boolean;
    }
  | { readonly type: 'server.state'; readonly server: string; readonly status: ServerStatus }
  | { readonly type: 'activity.recorded'; readonly entry: ActivityEntry };

export type DaemonEventListener = (event: DaemonEvent) => void;

export interface DaemonEvents {
  /** Never throws nor waits: a slow or failing listener must not slow the emitter. */
  emit(event: DaemonEvent): void;
  /** Returns the unsubscribe function. `onClose` runs when the daemon shuts down. */
  subscribe(listener: DaemonEventListener, onClose?: () => void): () => void;
}
