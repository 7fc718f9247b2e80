import type { Transport } from '../domain/server-definition.js';
import type { HarmlessKeys } from './harmless-keys.js';

/**
 * The vocabulary of agent configuration: where an agent keeps its MCP servers, in which
 * format, and the agent-independent view of one server entry. Nothing here reads the
 * machine: every function takes an AgentContext, so tests lay out fake homes for macOS,
 * Linux and Windows on any host.
 */

export type Platform = 'darwin' | 'linux' | 'win32';

export interface AgentContext {
  readonly platform: Platform;
  /** The user's home directory (HOME, or USERPROFILE on Windows). */
  readonly homeDir: string;
  /** Environment variables that move config directories (APPDATA, XDG_CONFIG_HOME, CODEX_HOME). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The project directory for project-scoped configs. */
  readonly cwd: string;
}

/**
 * user: the agent's global config. project: a file inside the project, usually shared
 * through version control. local: Claude Code's private per-project entries.
 */
export type Scope = 'user' | 'project' | 'local';
export const scopes: readonly Scope[] = ['user', 'project', 'local'];

/** json: strict JSON (comments are an error, as the agent would see them). jsonc: JSON with comments. */
export type FileFormat = 'json' | 'jsonc' | 'toml';

export interface ConfigLocation {
  readonly scope: Scope;
  readonly path: string;
  readonly format: FileFormat;
  /** Where the map of servers sits inside the document, e.g. ['mcpServers']. */
  readonly serversKey: readonly string[];
  /** Tells two locations of one scope apart (Cline's extension and CLI files). */
  readonly label?: string;
}

/** One server as an agent describes it, in Coffer's terms. */
export interface AgentServer {
  readonly transport: Transport;
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly enabled: boolean;
  /** What could not be carried over, in words a user can act on (never values). */
  readonly notes: readonly string[];
  /** The entry's keys Coffer did not carry over: the server in Coffer runs without them. */
  readonly dropped?: readonly string[];
}

/** An entry that is not importable, and why (a Zed extension, Coffer itself, …). */
export interface SkippedEntry {
  readonly skip: string;
  /** The entry itself is broken (not an object, nothing to run): the user has a fix to make. */
  readonly malformed?: true;
}

export type ParsedEntry = AgentServer | SkippedEntry;

export function isSkipped(entry: ParsedEntry): entry is SkippedEntry {
  return 'skip' in entry;
}

/** How an agent starts `coffer shim`: absolute paths, so GUI apps need no shell PATH. */
export interface ShimLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** What Coffer knows about one agent. Adding an agent is one file in catalog/. */
export interface AgentDefinition {
  /** The id used on the command line, e.g. "cursor". */
  readonly id: string;
  readonly displayName: string;
  /** The documentation the locations and format were verified against (docs/AGENTS.md). */
  readonly docs: string;
  /** Every config file the agent reads, most important first within a scope. */
  locations(context: AgentContext): ConfigLocation[];
  /** Directories whose existence shows the agent is installed even without a config file. */
  markers(context: AgentContext): string[];
  /** Reads one entry of the agent's server map. */
  parseEntry(raw: unknown): ParsedEntry;
  /**
   * The agent fills in VS Code's path variables (`${workspaceFolder}`, `${userHome}`, …)
   * in its entries, and so does an import of them (path-variables.ts).
   */
  readonly pathVariables?: boolean;
  /** The agent reads `${VAR:-default}` as VAR, else the default (default-variables.ts). */
  readonly defaultVariables?: boolean;
  /**
   * Keys an import does not carry over that only say how the agent treats the server
   * (harmless-keys.ts): `install --replace` removes an entry whose only leftovers they are.
   */
  readonly harmlessKeys?: HarmlessKeys;
  /** The entry, in the agent's own format, that runs `coffer shim`. */
  shimEntry(launch: ShimLaunch): Record<string, unknown>;
}
