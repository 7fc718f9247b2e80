/**
 * The agent-setup port (implemented by src/agents, wired by the daemon): what the REST
 * API and the UI need to show agents and change their config files. Views carry no
 * secret: a file's text is shown with every env and header value masked.
 */
import type { KnownServer } from '../same-launch.js';
import type { DoctorAgent, DoctorFinding } from './doctor-port.js';
import type { ServerDefinition } from '../server-definition.js';

export type AgentScope = 'user' | 'project' | 'local';

export interface AgentLocationView {
  readonly scope: AgentScope;
  /** Tells two files of one scope apart (Cline's extension and CLI files). */
  readonly label?: string;
  readonly path: string;
  readonly exists: boolean;
  /** Entries other than Coffer's own. */
  readonly servers: number;
  readonly coffer_installed: boolean;
  /** Installed, but its entry no longer runs (the doctor's AGENT_SHIM_BROKEN): why. */
  readonly coffer_problem?: string;
  /**
   * Of those, the ones an import would still act on: add (a name clash under another
   * name), or note as served by Coffer when it has the same server (for `install
   * --replace`). 0 once every entry was imported or noted.
   */
  readonly to_import: number;
  /** `<path>:<line>:<column>: <reason>` when the file does not parse (it is then never edited). */
  readonly problem?: string;
}

export interface AgentView {
  readonly id: string;
  readonly name: string;
  /** A config file or the agent's own folder exists on this machine. */
  readonly present: boolean;
  readonly docs: string;
  readonly locations: readonly AgentLocationView[];
}

export type AgentChangeKind = 'install' | 'uninstall';

export interface AgentChangeOptions {
  /** install only: also remove the entries imported from this file into Coffer. */
  readonly replace?: boolean;
  /**
   * Coffer's servers, each with its switch (true: enabled). With it, --replace keeps an
   * entry whose server Coffer no longer has or has switched off: the agent would lose a
   * server that works for one that does not.
   */
  readonly cofferServers?: ReadonlyMap<string, boolean>;
}

/** What an install or uninstall will do to one file, before it is done. */
export interface AgentChangePreview {
  readonly agent: string;
  readonly change: AgentChangeKind;
  readonly scope: AgentScope;
  readonly path: string;
  /** false: applying it writes nothing. */
  readonly changes: boolean;
  /** One line per effect, as `coffer agents install --dry-run` prints them. */
  readonly summary: readonly string[];
  /** The file now and afterwards (null: no file), env and header values masked as `***`. */
  readonly before: string | null;
  readonly after: string | null;
  /** sha256 of the file now (null: no file): apply refuses if it changed since. */
  readonly before_sha256: string | null;
}

export interface AgentChangeResult extends AgentChangePreview {
  /** The backup taken before the write (`coffer agents restore`); absent when nothing changed. */
  readonly backup_id?: string;
}

/** `same`: Coffer already has this server under some name; nothing is added. */
export type AgentImportAction = 'add' | 'same' | 'clash' | 'skip' | 'invalid';

/** One entry of an agent file and what importing it does. Secrets carry values: never answer them. */
export interface AgentImportItem {
  readonly original: string;
  readonly server: string;
  readonly action: AgentImportAction;
  readonly reason?: string;
  readonly definition?: ServerDefinition;
  readonly secrets: readonly {
    readonly server: string;
    readonly kind: 'env' | 'header';
    readonly name: string;
    readonly value: string;
  }[];
  readonly notes: readonly string[];
  readonly fingerprint: string;
}

export interface AgentImportPlan {
  readonly agent: string;
  readonly scope: AgentScope;
  /** The file read; null for text pasted in the agent's format (nothing is recorded then). */
  readonly path: string | null;
  readonly items: readonly AgentImportItem[];
}

export interface AgentImportOptions {
  /** The servers Coffer already has: their names are taken, and an entry may be one of them. */
  readonly known: readonly KnownServer[];
  /** Give clashing servers a free name instead of skipping them. */
  readonly rename?: boolean;
  /** The daemon's port: an entry whose URL is this daemon is Coffer itself, over HTTP. */
  readonly ownPort?: number;
  /** Read this text in the agent's format (a server README's snippet) instead of its config. */
  readonly text?: string;
}

/** Asynchronous: the daemon loads the agent layer (file parsers, WebAssembly) on first use. */
/** What the agents' entries are compared with: the servers Coffer has, and its port. */
export interface AgentListOptions {
  readonly known: readonly KnownServer[];
  readonly ownPort?: number;
}

export interface AgentSetup {
  list(options: AgentListOptions): Promise<AgentView[]>;
  /** The doctor's checks of the agents' files; `daemon`: entries reaching it over HTTP. */
  doctor(daemon: { readonly port: number; readonly token: string }): Promise<{
    readonly agents: readonly DoctorAgent[];
    readonly findings: readonly DoctorFinding[];
  }>;
  preview(
    change: AgentChangeKind,
    agent: string,
    scope: AgentScope,
    options: AgentChangeOptions,
  ): Promise<AgentChangePreview>;
  /** Plans again and writes; refuses when the file's sha256 is not `expectedSha256` (if given). */
  apply(
    change: AgentChangeKind,
    agent: string,
    scope: AgentScope,
    options: AgentChangeOptions & { readonly expectedSha256?: string | null },
  ): Promise<AgentChangeResult>;
  planImport(
    agent: string,
    scope: AgentScope,
    options: AgentImportOptions,
  ): Promise<AgentImportPlan>;
  /** Remembers what the daemon now has, so install --replace removes exactly those entries. */
  recordImports(
    plan: AgentImportPlan,
    imported: readonly { readonly item: AgentImportItem; readonly pending: readonly string[] }[],
  ): Promise<void>;
}
