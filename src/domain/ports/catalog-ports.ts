/** Ports the gateway implements for the admin side: live capability views and change notices. */
import type { ActivityEntry } from './store-ports.js';
import type { JsonObject } from './upstream-port.js';

/** Lets the admin side tell live sessions that what they show has changed. */
export interface SessionNotifier {
  /** Drops cached lists of `server` in every session and sends list_changed. */
  capabilitiesChanged(server: string): void;
  /** A server was added, removed, enabled or disabled. */
  serversChanged(): void;
}

// ── Admin view of capabilities (implemented by the gateway's catalog) ───────

export type ServerState =
  | 'idle'
  /** Its process or connection is being started (a first `npx -y` may download for a minute). */
  | 'starting'
  | 'running'
  | 'error'
  | 'crash-loop'
  | 'disabled'
  /** A remote server whose OAuth tokens are missing or were refused: `coffer mcp login`. */
  | 'needs-sign-in';

/**
 * How many of each kind a server listed last. A kind is absent until it was listed: an
 * agent often lists only its tools, and a kind never listed is unknown, not empty (ADR-004).
 */
export interface CapabilityCounts {
  readonly tools?: number;
  readonly prompts?: number;
  readonly resources?: number;
  readonly resource_templates?: number;
}

/** A server's last failure, as the user is to read it: what happened, and what to do. */
export interface LastError {
  readonly code: string;
  readonly message: string;
  /** What the user can do about it (the error's hint), when there is something to do. */
  readonly hint?: string;
  readonly at: string;
}

export interface ServerStatus {
  readonly state: ServerState;
  readonly last_error: LastError | null;
  /** The MCP revision of its last connection ("2025-11-25", "2026-07-28"), once one opened. */
  readonly protocol_version?: string;
  /** Counts from the last successful list; null until one succeeded. */
  readonly counts: CapabilityCounts | null;
}

/** One capability as the admin side shows it: live fields plus the preference. */
export interface CapabilityView {
  readonly key: string;
  readonly enabled: boolean;
  /** The upstream's own definition (name, title, description, inputSchema, …), verbatim. */
  readonly definition: JsonObject | null;
  /**
   * Tools only: its definition changed since the user allowed it, and it is held back
   * (not listed to agents, calls refused) until reviewed with `coffer mcp review`.
   */
  readonly held?: boolean;
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
  readonly counts?: CapabilityCounts;
  /** `hint`: what to do about it, when the failure says (as a server's last error does). */
  readonly error?: { readonly code: string; readonly message: string; readonly hint?: string };
}

export interface CapabilityCatalog {
  status(server: string): ServerStatus;
  /** Live lists through the admin connection, reconciled with preferences. */
  capabilities(server: string): Promise<ServerCapabilities>;
  /** A fresh temporary connection: never reuses nor disturbs live ones. */
  testConnection(server: string): Promise<ConnectionTestResult>;
  /** Drops cached lists and connections of `server` everywhere (admin and sessions), and says so. */
  refresh(server: string): Promise<void>;
  /** The server's definition changed or it was removed: close what is connected to it. */
  forget(server: string): Promise<void>;
}

// ── A tool called from the admin side (the UI's playground) ──────────────────

/** One call made through the admin catalog, with the activity row it recorded. */
export interface ToolRun {
  /** error: the call was refused or failed; a result with isError is `ok` (the call worked). */
  readonly outcome: 'ok' | 'error';
  /** The upstream's result, verbatim. */
  readonly result?: JsonObject;
  readonly error?: { readonly code: string; readonly message: string };
  readonly activity: ActivityEntry;
}

/** Who runs a tool from the UI's playground, and the trace of that API request. */
export interface AdminCaller {
  readonly client_name: string | null;
  readonly trace_id?: string;
}

export interface ToolRunner {
  /**
   * Calls `tool` of `server` as an agent would: a disabled server or tool is refused,
   * an unknown tool too, and the call is recorded in the activity log as `caller`, under
   * the trace of the request that asked (`trace_id`), which the upstream is sent too.
   */
  callTool(server: string, tool: string, args: JsonObject, caller: AdminCaller): Promise<ToolRun>;
}

// ── What tools/list costs a model (the UI's context budget) ───────────────────

/** Characters of the JSON and tokens as characters / 4 (the README's rough measure). */
export interface ListSize {
  readonly tools: number;
  readonly chars: number;
  readonly tokens: number;
}

export interface ServerListSize extends ListSize {
  readonly server: string;
  /** could-not-load: the server is left out of the totals, as a session's list leaves it out. */
  readonly status: 'ok' | 'could-not-load';
  readonly error?: { readonly code: string; readonly message: string };
}

export interface ContextBudget {
  /** Each enabled server: its enabled tools as an aggregated session exposes them. */
  readonly servers: readonly ServerListSize[];
  /** tools/list in full mode: every enabled tool plus coffer__search_tools. */
  readonly full: ListSize;
  /** tools/list in lean mode: coffer__search_tools and coffer__call_tool only. */
  readonly lean: ListSize;
}

export interface ContextBudgetReader {
  contextBudget(): Promise<ContextBudget>;
}
