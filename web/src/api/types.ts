/**
 * The daemon's REST shapes as the UI reads them. Written out here rather than imported
 * from src/: the UI talks to the daemon over HTTP only, like any other client.
 * test/unit/architecture/web-wire-types.test.ts fails the typecheck when they drift.
 */
export type Transport = 'stdio' | 'http' | 'sse';
export type ServerState =
  'idle' | 'starting' | 'running' | 'error' | 'crash-loop' | 'disabled' | 'needs-sign-in';
export type CapabilityType = 'tool' | 'prompt' | 'resource' | 'resource_template';

/** A kind is absent until the server listed it: unknown, not 0. */
export interface Counts {
  readonly tools?: number;
  readonly prompts?: number;
  readonly resources?: number;
  readonly resource_templates?: number;
}

export interface ServerStatus {
  readonly state: ServerState;
  readonly last_error: {
    readonly code: string;
    readonly message: string;
    /** What the user can do about it, when there is something to do. */
    readonly hint?: string;
    readonly at: string;
  } | null;
  readonly counts: Counts | null;
}

export interface Server {
  readonly name: string;
  readonly transport: Transport;
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly secret_env: readonly string[];
  readonly secret_headers: readonly string[];
  readonly enabled: boolean;
  readonly auto_enable_new_capabilities: boolean;
  /** One upstream connection for every agent session (opt-in). */
  readonly shared: boolean;
  readonly status: ServerStatus;
  /** Tools held back because their definition changed since allowed (the Changed tools section). */
  readonly held_tools?: number;
  /** A remote server: Coffer holds OAuth tokens for the URL it has now. */
  readonly signed_in?: boolean;
}

export interface CapabilityView {
  readonly key: string;
  readonly enabled: boolean;
  readonly definition: Readonly<Record<string, unknown>> | null;
  /** Tools only: changed since allowed, held back until reviewed (the Changed tools section). */
  readonly held?: boolean;
}

export type CapabilityListing =
  | { readonly status: 'ok' | 'not-supported'; readonly items: readonly CapabilityView[] }
  | {
      readonly status: 'could-not-load';
      readonly error: { readonly code: string; readonly message: string };
      readonly items: readonly CapabilityView[];
    };

export interface ServerCapabilities {
  readonly tools: CapabilityListing;
  readonly prompts: CapabilityListing;
  readonly resources: CapabilityListing;
  readonly resource_templates: CapabilityListing;
}

/** What Coffer does before a tool runs: run it, ask the user first, or refuse it. */
export type ToolPolicy = 'allow' | 'ask' | 'deny';

/** One tool's policy: its own (null: none), whether it says destructive, and what applies. */
export interface ToolPolicyRow {
  readonly key: string;
  readonly policy: ToolPolicy | null;
  readonly destructive: boolean;
  readonly effective: ToolPolicy;
  /** Switched off: refused whatever its policy says. */
  readonly enabled: boolean;
}

/** GET /api/v1/servers/:name/policies. */
export interface ServerPolicies {
  readonly server: string;
  readonly destructive: ToolPolicy;
  readonly tools: readonly ToolPolicyRow[];
}

/** One line of a diff: kept, added or removed. */
export interface DiffLine {
  readonly op: ' ' | '+' | '-';
  readonly text: string;
}

/** A tool held back because its definition changed since the user allowed it. */
export interface ReviewedTool {
  readonly key: string;
  readonly pinned_at: string;
  readonly detected_at: string;
  readonly diff: readonly DiffLine[];
}

/** GET /api/v1/servers/:name/reviews. */
export interface ToolReviews {
  readonly server: string;
  readonly tools: readonly ReviewedTool[];
}

export interface ConnectionTest {
  readonly ok: boolean;
  readonly latency_ms: number;
  readonly counts?: Counts;
  readonly error?: { readonly code: string; readonly message: string; readonly hint?: string };
}

export interface ActivityEntry {
  readonly id?: number;
  readonly at: string;
  readonly client_name: string | null;
  readonly client_version: string | null;
  readonly server: string | null;
  readonly capability_type: string;
  readonly capability_key: string | null;
  readonly action: string;
  readonly duration_ms: number | null;
  readonly outcome: 'ok' | 'error';
  readonly error_code: string | null;
  /** What the secret guard did: secret_blocked, credential_flagged, credential_blocked, redacted (comma-separated). */
  readonly guard?: string | null;
}

export interface ActivityPage {
  readonly activity: readonly ActivityEntry[];
  readonly next_before_id: number | null;
}

export interface SecretRow {
  readonly server: string;
  readonly kind: 'env' | 'header';
  readonly name: string;
  readonly stored: boolean;
  readonly referenced: boolean;
}

export type DaemonEvent =
  | { readonly type: 'ready' }
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

/** GET /api/v1/doctor: the daemon's health report (`coffer doctor` adds the agents). */
export type FindingCode =
  | 'NODE_VERSION'
  | 'DAEMON_NOT_RUNNING'
  | 'DAEMON_OUTDATED'
  | 'KEYCHAIN_FALLBACK'
  | 'SECRET_UNUSED'
  | 'DATABASE_RESTORED'
  | 'SNAPSHOT_FAILING'
  | 'COMMAND_NOT_FOUND'
  | 'CWD_NOT_FOUND'
  | 'SCRIPT_NOT_FOUND'
  | 'SECRET_MISSING'
  | 'SERVER_FAILING'
  | 'SERVER_NEEDS_SIGN_IN'
  | 'TOOLS_CHANGED'
  | 'SERVER_DUPLICATE'
  | 'SECRET_IN_DEFINITION'
  | 'AGENT_SHIM_BROKEN'
  | 'AGENT_CONFIG_UNREADABLE'
  | 'AGENT_TOKEN_STALE';

export interface DoctorFinding {
  readonly code: FindingCode;
  /** `fail`: broken (`coffer doctor` exits non-zero); `warn`: worth knowing. */
  readonly level: 'warn' | 'fail';
  /** `node`, `daemon`, `keychain`, a server name or an agent id. */
  readonly subject: string;
  readonly message: string;
  readonly fix: string | null;
}

export interface DoctorServer {
  readonly name: string;
  readonly transport: string;
  readonly enabled: boolean;
  readonly state: ServerState;
  readonly command: string | null;
  /** Where the command resolves on the daemon's search PATH; null: not found, or remote. */
  readonly command_path: string | null;
  readonly started_at: string | null;
  readonly start_ms: number | null;
  readonly last_error: ServerStatus['last_error'];
}

export interface DoctorReport {
  readonly coffer_version: string;
  readonly node_version: string;
  readonly platform: string;
  readonly daemon: { readonly pid: number; readonly port: number; readonly started_at: string };
  readonly keychain: {
    readonly backend: 'keychain' | 'file';
    readonly location?: string;
    readonly reason?: string;
  };
  readonly search_path: string | null;
  readonly servers: readonly DoctorServer[];
  /** Absent when the daemon could not read the agents' files. */
  readonly agents?: readonly DoctorAgent[];
  readonly findings: readonly DoctorFinding[];
}

export interface DoctorAgent {
  readonly id: string;
  readonly name: string;
  readonly config: string;
  readonly shim_ok: boolean;
  readonly problem: string | null;
}

export type AgentScope = 'user' | 'project' | 'local';

export interface AgentLocation {
  readonly scope: AgentScope;
  readonly label?: string;
  readonly path: string;
  readonly exists: boolean;
  readonly servers: number;
  readonly coffer_installed: boolean;
  /** Installed, but its entry no longer runs: why (the doctor's AGENT_SHIM_BROKEN). */
  readonly coffer_problem?: string;
  /** Of `servers`, those an import would still add, or note as served by Coffer. */
  readonly to_import: number;
  readonly problem?: string;
}

export interface Agent {
  readonly id: string;
  readonly name: string;
  readonly present: boolean;
  readonly docs: string;
  readonly locations: readonly AgentLocation[];
}

export interface AgentChangePreview {
  readonly agent: string;
  readonly change: 'install' | 'uninstall';
  readonly scope: AgentScope;
  readonly path: string;
  readonly changes: boolean;
  readonly summary: readonly string[];
  readonly before: string | null;
  readonly after: string | null;
  readonly before_sha256: string | null;
}

export interface AgentChangeResult extends AgentChangePreview {
  readonly backup_id?: string;
}

export interface AgentImportItem {
  readonly original: string;
  readonly server: string;
  readonly action: 'add' | 'same' | 'clash' | 'skip' | 'invalid';
  readonly reason?: string;
  readonly outcome: 'planned' | 'added' | 'failed';
  readonly error?: string;
  readonly secrets_pending?: readonly string[];
  readonly definition?: {
    readonly transport: Transport;
    readonly command?: string | undefined;
    readonly args: readonly string[];
    readonly url?: string | undefined;
  };
  readonly secrets: readonly { readonly kind: 'env' | 'header'; readonly name: string }[];
  readonly notes: readonly string[];
}

export interface AgentImport {
  readonly agent: string;
  readonly scope: AgentScope;
  /** null: pasted text, no file. */
  readonly path: string | null;
  readonly items: readonly AgentImportItem[];
}

export interface ToolRun {
  readonly outcome: 'ok' | 'error';
  readonly result?: Readonly<Record<string, unknown>>;
  readonly error?: { readonly code: string; readonly message: string };
  readonly activity: ActivityEntry;
}

export interface ListSize {
  readonly tools: number;
  readonly chars: number;
  readonly tokens: number;
}

export interface ServerListSize extends ListSize {
  readonly server: string;
  readonly status: 'ok' | 'could-not-load';
  readonly error?: { readonly code: string; readonly message: string };
}

export interface ContextBudget {
  readonly servers: readonly ServerListSize[];
  readonly full: ListSize;
  readonly lean: ListSize;
}

/** The part of GET /api/v1/status the UI reads: the tool result budget (null: off). */
export interface DaemonStatus {
  readonly result_budget_tokens?: number | null;
  readonly result_ttl_ms?: number;
}
