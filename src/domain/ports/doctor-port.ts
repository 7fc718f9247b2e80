/** `coffer doctor` and GET /api/v1/doctor: what is set up, what is broken, and the fix. */
import type { LastError, ServerState } from './catalog-ports.js';
import type { SecretBackendInfo } from './secret-store-port.js';

/** `fail`: something is broken and `coffer doctor` exits non-zero; `warn`: worth knowing. */
export type FindingLevel = 'warn' | 'fail';

/** The findings whose subject is a server (its name). */
const SERVER_CODES = [
  'COMMAND_NOT_FOUND',
  'CWD_NOT_FOUND',
  'SCRIPT_NOT_FOUND',
  'SECRET_MISSING',
  'SERVER_FAILING',
  'SERVER_NEEDS_SIGN_IN',
  'TOOLS_CHANGED',
  'SERVER_DUPLICATE',
  'SECRET_IN_DEFINITION',
] as const;

/**
 * Stable codes: scripts and the UI may match on them. Listed in docs/DOCTOR.md. The first
 * three name Node, the daemon and the keychain; server findings carry the server's name in
 * `subject`, agent findings the agent's id.
 */
export const findingCodes = [
  'NODE_VERSION',
  'DAEMON_NOT_RUNNING',
  'DAEMON_OUTDATED',
  'KEYCHAIN_FALLBACK',
  'SECRET_UNUSED',
  'DATABASE_RESTORED',
  'SNAPSHOT_FAILING',
  ...SERVER_CODES,
  'AGENT_SHIM_BROKEN',
  'AGENT_CONFIG_UNREADABLE',
  'AGENT_TOKEN_STALE',
] as const;
export type FindingCode = (typeof findingCodes)[number];

/** The codes whose subject is a server. */
export const serverFindingCodes: ReadonlySet<FindingCode> = new Set(SERVER_CODES);

/** COMMAND_NOT_FOUND's words, for a server registered or one an import would add. */
export function commandNotFound(command: string): string {
  return `command not found: ${command} (not on the PATH Coffer searches)`;
}

/** SCRIPT_NOT_FOUND's words: the file an interpreter is told to run is not there. */
export function scriptNotFound(script: string): string {
  return `the script it runs does not exist: ${script}`;
}

/** CWD_NOT_FOUND's words: the folder a stdio server is to run in is not there. */
export function cwdNotFound(cwd: string): string {
  return `its working directory does not exist: ${cwd}`;
}

export interface DoctorFinding {
  readonly code: FindingCode;
  readonly level: FindingLevel;
  /** What the finding is about: `node`, `daemon`, `keychain`, a server or an agent name. */
  readonly subject: string;
  readonly message: string;
  /** What to do about it, a command when there is one; null when nothing is to be done. */
  readonly fix: string | null;
}

export interface DoctorServer {
  readonly name: string;
  readonly transport: string;
  readonly enabled: boolean;
  readonly state: ServerState;
  /** A stdio server's command as registered; null for remote servers. */
  readonly command: string | null;
  /** The file it resolves to on the daemon's search PATH; null when not found or remote. */
  readonly command_path: string | null;
  /** When its last successful start finished, and how long that start took. */
  readonly started_at: string | null;
  readonly start_ms: number | null;
  readonly last_error: LastError | null;
}

/** An agent Coffer is installed in, and whether its entry still runs a working shim. */
export interface DoctorAgent {
  readonly id: string;
  readonly name: string;
  /** The config file holding the entry. */
  readonly config: string;
  readonly shim_ok: boolean;
  readonly problem: string | null;
}

/**
 * What the daemon knows: itself, its servers, and the agents' files as seen from its own
 * folder (the home folder; the CLI checks those of the folder it runs in instead).
 */
export interface DoctorReport {
  readonly coffer_version: string;
  readonly node_version: string;
  readonly platform: string;
  readonly daemon: {
    readonly pid: number;
    readonly port: number;
    readonly started_at: string;
  };
  readonly keychain: SecretBackendInfo;
  /** The PATH stdio commands are found on (the login shell's, merged with the inherited one). */
  readonly search_path: string | null;
  readonly servers: readonly DoctorServer[];
  /** Absent when the agents' files could not be read (the rest of the report stands). */
  readonly agents?: readonly DoctorAgent[];
  readonly findings: readonly DoctorFinding[];
}

export interface DoctorSource {
  /** `agents: false` leaves the agents' files unread (default true). */
  report(options?: { readonly agents?: boolean }): Promise<DoctorReport>;
}
