import type {
  DoctorAgent,
  DoctorFinding,
  DoctorReport,
  DoctorServer,
  DoctorSource,
  SecretStore,
  ServerRepository,
  ServerStatus,
} from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';
import {
  duplicateFindings,
  heldToolsFinding,
  nodeFinding,
  plainCredentialFindings,
  unusedSecretFindings,
  serverFindings,
  outdatedFinding,
  restoredFinding,
  snapshotFinding,
  type ServerFiles,
} from './doctor-findings.js';
import type { SnapshotFailure } from './config-snapshot.js';
import { sameSecretHeaders } from './secret-header-twins.js';
import type { RestoreReport } from './store-recovery.js';

export interface DoctorDeps {
  readonly servers: Pick<ServerRepository, 'list'>;
  readonly states: {
    status(server: string): ServerStatus;
    lastStart(server: string): { readonly at: string; readonly ms: number } | null;
  };
  /** `get`: to tell two accounts of one service from one server added twice. */
  readonly secrets: Pick<SecretStore, 'backend' | 'list'> & Partial<Pick<SecretStore, 'get'>>;
  /** The PATH stdio commands are found on (asked of the login shell at start). */
  readonly searchPath: () => Promise<string | undefined>;
  /** Whether a stdio server's working directory, and the script it runs, are there. */
  readonly files: ServerFiles;
  /** Where a command resolves on that PATH (src/config/command-lookup.ts), or undefined. */
  readonly findCommand: (
    command: string,
    searchPath: string | undefined,
    cwd: string | undefined,
  ) => string | undefined;
  readonly daemon: { readonly pid: number; readonly port: number; readonly startedAt: Date };
  readonly versions: { readonly coffer: string; readonly node: string };
  readonly platform: string;
  /** A server's tools held back for a changed definition, from the pin records (issue 20). */
  readonly heldTools?: (server: string) => Promise<readonly string[]>;
  /** Whether Coffer's files were updated or rebuilt under this daemon (code-stamp.ts). */
  readonly codeReplaced?: () => boolean;
  /**
   * What this daemon restored at start from a damaged database (store-recovery.ts), while
   * the damaged file is still there to be looked at.
   */
  readonly restored?: () => RestoreReport | undefined;
  /** A snapshot (configuration or tool pins) that could not be written lately. */
  readonly snapshotFailure?: () => SnapshotFailure | undefined;
  /** The agents' files, checked from the daemon's folder (src/agents/agent-doctor.ts). */
  readonly agents?: () => Promise<{
    readonly agents: readonly DoctorAgent[];
    readonly findings: readonly DoctorFinding[];
  }>;
}

/** The daemon's `coffer doctor` (GET /api/v1/doctor): itself, its servers, the agents' files. */
export function createDoctor(deps: DoctorDeps): DoctorSource {
  return {
    report: async (options = {}) => {
      const [records, keychain, searchPath] = await Promise.all([
        deps.servers.list(),
        deps.secrets.backend(),
        deps.searchPath(),
      ]);
      // The keychain may be locked or absent: the report still comes, without secrets.
      const stored = await deps.secrets.list().catch(() => []);
      const servers = records.map((record) => describeServer(deps, record, searchPath));
      const held = await Promise.all(records.map((record) => heldToolsOf(deps, record)));
      const findings: DoctorFinding[] = [];
      const node = nodeFinding(deps.versions.node);
      if (node !== undefined) findings.push(node);
      if (deps.codeReplaced?.() === true) findings.push(outdatedFinding(deps.daemon));
      if (keychain.backend === 'file')
        findings.push({
          code: 'KEYCHAIN_FALLBACK',
          level: 'warn',
          subject: 'keychain',
          message: `secrets are kept in ${keychain.location ?? 'a file'} (mode 0600), not the OS keychain${keychain.reason === undefined ? '' : `: ${keychain.reason}`}`,
          fix: 'to use the OS keychain, install and unlock it (Linux: a Secret Service such as gnome-keyring), then restart Coffer: coffer stop',
        });
      const restored = deps.restored?.();
      if (restored !== undefined) findings.push(restoredFinding(restored));
      const snapshot = deps.snapshotFailure?.();
      if (snapshot !== undefined) findings.push(snapshotFinding(snapshot));
      records.forEach((record, index) => {
        const server = servers[index];
        if (server !== undefined)
          findings.push(...serverFindings(record, server, stored, deps.files));
        const changed = heldToolsFinding(record.name, held[index] ?? []);
        if (changed !== undefined) findings.push(changed);
      });
      findings.push(
        ...duplicateFindings(records, await sameSecretHeaders(records, secretReader(deps))),
        ...plainCredentialFindings(records),
        ...unusedSecretFindings(records, stored),
      );
      // Files that cannot be read are the agents check's own findings; a check that
      // fails outright leaves the agents out and the rest of the report standing.
      const agents =
        options.agents === false ? undefined : await deps.agents?.().catch(() => undefined);
      if (agents !== undefined) findings.push(...agents.findings);
      const report: DoctorReport = {
        coffer_version: deps.versions.coffer,
        node_version: deps.versions.node,
        platform: deps.platform,
        daemon: {
          pid: deps.daemon.pid,
          port: deps.daemon.port,
          started_at: deps.daemon.startedAt.toISOString(),
        },
        keychain,
        search_path: searchPath ?? null,
        servers,
        ...(agents === undefined ? {} : { agents: agents.agents }),
        findings,
      };
      return report;
    },
  };
}

/** The store's `get`, called on the store (it may be a class's method), if it has one. */
function secretReader(deps: DoctorDeps): SecretStore['get'] | undefined {
  return deps.secrets.get?.bind(deps.secrets);
}

/** A disabled server is left out, as its other findings are; unreadable pins say nothing. */
async function heldToolsOf(deps: DoctorDeps, record: ServerRecord): Promise<readonly string[]> {
  if (!record.enabled || deps.heldTools === undefined) return [];
  return deps.heldTools(record.name).catch(() => []);
}

function describeServer(
  deps: DoctorDeps,
  record: ServerRecord,
  searchPath: string | undefined,
): DoctorServer {
  const status = deps.states.status(record.name);
  const start = deps.states.lastStart(record.name);
  const command = record.transport === 'stdio' ? (record.command ?? '') : null;
  return {
    name: record.name,
    transport: record.transport,
    enabled: record.enabled,
    state: record.enabled ? status.state : 'disabled',
    command,
    command_path:
      command === null
        ? null
        : (deps.findCommand(command, record.env['PATH'] ?? searchPath, record.cwd) ?? null),
    started_at: start?.at ?? null,
    start_ms: start?.ms ?? null,
    last_error: status.last_error,
  };
}
