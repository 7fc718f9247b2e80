import type { ToolPolicy } from '../domain/tool-policy.js';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { ActivityOutcome } from '../domain/ports.js';
import type { CapabilityType } from '../domain/capability.js';
import type { Transport } from '../domain/server-definition.js';

/**
 * The row types kysely checks queries against. They describe the schema after the
 * newest migration; migrations themselves use `Kysely<unknown>` so an old migration
 * never changes meaning when these types move on.
 *
 * SQLite has no boolean: flags are INTEGER 0/1 (better-sqlite3 refuses to bind `true`).
 * Map-like and list-like definition fields are JSON text.
 */

/** Defaulted by the table, so optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface McpServersTable {
  id: Generated<number>;
  name: string;
  transport: Transport;
  command: string | null;
  /** JSON array of strings. */
  args: Defaulted<string>;
  /** JSON object of string to string. */
  env: Defaulted<string>;
  cwd: string | null;
  url: string | null;
  /** JSON object of string to string. */
  headers: Defaulted<string>;
  /** JSON array of variable names resolved from the keychain at spawn time. */
  secret_env: Defaulted<string>;
  /** JSON array of header names resolved from the keychain at call time. */
  secret_headers: Defaulted<string>;
  enabled: Defaulted<number>;
  auto_enable_new_capabilities: Defaulted<number>;
  /** One upstream connection for every session, even a 2025 one (migration 0005). */
  shared: Defaulted<number>;
  created_at: string;
  updated_at: string;
}

/** ADR-004: the only persisted capability state. */
export interface McpCapabilityPreferencesTable {
  resource_id: number;
  capability_type: CapabilityType;
  capability_key: string;
  enabled: number;
  first_seen_at: string;
  last_seen_at: string;
}

export interface McpToolPoliciesTable {
  resource_id: number;
  tool_key: string;
  policy: ToolPolicy;
  updated_at: string;
}

export interface McpServerPoliciesTable {
  resource_id: number;
  destructive_policy: ToolPolicy;
  updated_at: string;
}

export interface McpToolPinsTable {
  resource_id: number;
  tool_key: string;
  hash: string;
  /** JSON text of the pinned fields (domain/tool-pin.ts). */
  definition: string;
  pinned_at: string;
  pending_hash: string | null;
  pending_definition: string | null;
  detected_at: string | null;
}

export interface ActivityTable {
  id: Generated<number>;
  at: string;
  trace_id: string | null;
  session_id: string | null;
  client_name: string | null;
  client_version: string | null;
  server: string | null;
  capability_type: string;
  capability_key: string | null;
  action: string;
  duration_ms: number | null;
  outcome: ActivityOutcome;
  error_code: string | null;
  /** What the secret guard did (migration 0004), comma-separated. */
  guard: string | null;
}

export interface UpstreamProcessesTable {
  pid: number;
  start_time: string;
  command_line: string;
  server: string;
  session_id: string | null;
  recorded_at: string;
}

export interface Database {
  mcp_servers: McpServersTable;
  mcp_capability_preferences: McpCapabilityPreferencesTable;
  mcp_tool_policies: McpToolPoliciesTable;
  mcp_server_policies: McpServerPoliciesTable;
  mcp_tool_pins: McpToolPinsTable;
  activity: ActivityTable;
  upstream_processes: UpstreamProcessesTable;
}

export type ServerRow = Selectable<McpServersTable>;
export type NewServerRow = Insertable<McpServersTable>;
export type ActivityRow = Selectable<ActivityTable>;
