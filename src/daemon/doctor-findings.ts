import { scriptPathOf } from '../config/script-path.js';
import { plainCredentials, urlCredentials } from '../domain/credential-shapes.js';
import {
  commandNotFound,
  cwdNotFound,
  scriptNotFound,
  type DoctorFinding,
  type DoctorServer,
  type SecretRef,
} from '../domain/ports.js';
import { secretKey, secretRefsOf, type ServerRecord } from '../domain/server-definition.js';
import { sameLaunch } from '../domain/same-launch.js';
import { reviewCommand } from '../domain/tool-pin.js';
import type { SnapshotFailure } from './config-snapshot.js';
import type { RestoreReport } from './store-recovery.js';

/**
 * The rules of `coffer doctor`: from what the daemon knows of a server, what is broken
 * and what to type to fix it. Pure, so every rule is unit-tested on its own.
 */

/** The oldest Node Coffer supports (package.json engines). */
const MIN_NODE: readonly [number, number] = [20, 19];

export function nodeFinding(version: string): DoctorFinding | undefined {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const [needMajor, needMinor] = MIN_NODE;
  if (major > needMajor || (major === needMajor && minor >= needMinor)) return undefined;
  return {
    code: 'NODE_VERSION',
    level: 'fail',
    subject: 'node',
    message: `Node ${version} is older than Coffer needs (${needMajor}.${needMinor} or newer)`,
    fix: `install Node ${needMajor}.${needMinor} or newer, then restart Coffer: coffer stop`,
  };
}

/** Coffer was updated or rebuilt while this daemon runs: it serves the old code. */
export function outdatedFinding(daemon: {
  readonly pid: number;
  readonly startedAt: Date;
}): DoctorFinding {
  return {
    code: 'DAEMON_OUTDATED',
    level: 'warn',
    subject: 'daemon',
    message: `Coffer was updated or rebuilt since this daemon started (pid ${daemon.pid}, ${daemon.startedAt.toISOString()}): it still runs the code it started with, while its web UI is read from the new files`,
    fix: 'restart it: coffer stop (the next coffer command, or agent, starts the new one; agents reconnect by themselves)',
  };
}

/** What became of the tool pins: without them every tool is pinned afresh when listed. */
function pinsRestored(restore: RestoreReport): string {
  if (restore.pinsMissing === undefined) return `${plural(restore.pins, 'tool pin')} restored`;
  return `tool pins not restored (${restore.pinsMissing}): each tool is pinned again at its next listing, as it is then`;
}

/** The daemon set a damaged database aside at start and filled a new one from the snapshot. */
export function restoredFinding(restore: RestoreReport): DoctorFinding {
  const failed =
    restore.failed.length === 0
      ? ''
      : `; could not restore ${restore.failed.join(', ')} (see logs/coffer.log)`;
  return {
    code: 'DATABASE_RESTORED',
    level: 'warn',
    subject: 'database',
    message: `coffer.db was damaged at start (${restore.at}): Coffer set it aside as ${restore.damagedPath} and restored ${plural(restore.restored.length, 'server')} from the configuration snapshot of ${restore.snapshotAt}, switches and policies included${failed}; ${pinsRestored(restore)}; the activity before is in the file set aside`,
    fix: `check your servers with \`coffer mcp list\`; once you are content, delete ${restore.damagedPath} (this notice goes with it)`,
  };
}

/** A snapshot a damaged database is restored from could not be written. */
export function snapshotFinding({ file, why }: SnapshotFailure): DoctorFinding {
  const lost = file === 'config-snapshot.json' ? 'your servers' : 'your tool pins';
  return {
    code: 'SNAPSHOT_FAILING',
    level: 'warn',
    subject: 'database',
    message: `${file} could not be written (${why}): if coffer.db were damaged now, ${lost} could not be restored from it`,
    fix: 'make the Coffer home writable and give it disk space; the next change writes it again, or restart: coffer stop',
  };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function quoted(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** What to type for a server whose last error has this code (`local`: a stdio server). */
function fixForError(server: string, code: string, local: boolean): string {
  switch (code) {
    case 'UPSTREAM_TIMEOUT':
      return `it did not answer in time; a first \`npx -y\` download can take minutes: run its command once in a terminal, or raise COFFER_CONNECT_TIMEOUT_MS, then: coffer mcp test ${server}`;
    case 'AUTH_REQUIRED':
      // Not a sign-in (that is SERVER_NEEDS_SIGN_IN): the server refused its key or token.
      return `set the key or token it takes: coffer mcp edit ${server} --header "Authorization: Bearer <token>", or coffer secrets set ${server} --header <Name>; then: coffer mcp test ${server}`;
    case 'SECRET_NOT_FOUND':
      return `coffer secrets list --server ${server}, then coffer secrets set ${server} --env <NAME>`;
    case 'PROCESS_LIMIT_REACHED':
      return 'close idle agent sessions, or raise COFFER_MAX_PROCESSES_PER_SERVER';
    default:
      return local
        ? `read why in its log: coffer logs --upstream ${server}; then retry: coffer mcp test ${server}`
        : `check that it is up and its URL (coffer mcp show ${server}); then retry: coffer mcp test ${server}`;
  }
}

/** What the doctor may ask of the files a stdio server names. */
export interface ServerFiles {
  readonly directoryExists: (path: string) => boolean;
  readonly fileExists: (path: string) => boolean;
}

/** Findings that say why a server cannot start at all: its failure is not news. */
const STARTS_NOTHING: ReadonlySet<string> = new Set([
  'COMMAND_NOT_FOUND',
  'CWD_NOT_FOUND',
  'SCRIPT_NOT_FOUND',
]);

export function serverFindings(
  record: ServerRecord,
  server: DoctorServer,
  storedSecrets: readonly SecretRef[],
  files: ServerFiles,
): DoctorFinding[] {
  if (!record.enabled) return [];
  const findings: DoctorFinding[] = [];
  const name = record.name;
  const local = record.transport === 'stdio';
  const cwd = local ? record.cwd : undefined;
  const script =
    record.transport === 'stdio' ? scriptPathOf(record.command ?? '', record.args, cwd) : undefined;
  if (cwd !== undefined && !files.directoryExists(cwd)) {
    // Nothing runs there, and a command looked up in it is not "not on the PATH".
    findings.push({
      code: 'CWD_NOT_FOUND',
      level: 'fail',
      subject: name,
      message: cwdNotFound(cwd),
      fix: `create it, or give the server the folder it runs in: coffer mcp edit ${name} --cwd <folder>`,
    });
  } else if (record.transport === 'stdio' && server.command_path === null) {
    const command = record.command ?? '';
    findings.push({
      code: 'COMMAND_NOT_FOUND',
      level: 'fail',
      subject: name,
      message: commandNotFound(command),
      fix: `install ${command}, or give the server its full path (in a terminal: command -v ${quoted(command)}): coffer mcp edit ${name} -- <full path> <its arguments>`,
    });
  } else if (script !== undefined && !files.fileExists(script)) {
    findings.push({
      code: 'SCRIPT_NOT_FOUND',
      level: 'fail',
      subject: name,
      message: scriptNotFound(script),
      fix: `build or install it there, or give the server the script's path: coffer mcp edit ${name} -- ${quoted(record.command ?? '')} <script> <its arguments>`,
    });
  }
  const missing = missingSecrets(record, storedSecrets);
  findings.push(...missing);
  // A failure the findings above explain is not a second problem to fix: the server cannot
  // start without its command, nor without a secret it names.
  const explained =
    findings.some(({ code }) => STARTS_NOTHING.has(code)) ||
    (missing.length > 0 && server.last_error?.code === 'SECRET_NOT_FOUND');
  if (server.state === 'needs-sign-in') {
    findings.push({
      code: 'SERVER_NEEDS_SIGN_IN',
      level: 'fail',
      subject: name,
      message: `${name} needs a sign-in before it can be used`,
      fix: `coffer mcp login ${name}`,
    });
  } else if ((server.state === 'error' || server.state === 'crash-loop') && !explained) {
    const error = server.last_error;
    findings.push({
      code: 'SERVER_FAILING',
      level: 'fail',
      subject: name,
      message:
        server.state === 'crash-loop'
          ? `${name} ${local ? 'keeps exiting right after it starts' : 'keeps dropping the connection'}${error === null ? '' : `: ${error.message}`}`
          : (error?.message ?? `${name} failed`),
      fix: fixForError(name, error?.code ?? 'UPSTREAM_UNAVAILABLE', local),
    });
  }
  return findings;
}

/**
 * Tools held back because their definition changed since the user allowed them (issue
 * 20): nothing is broken, the server works without them, but agents miss them until the
 * change is reviewed.
 */
export function heldToolsFinding(
  server: string,
  held: readonly string[],
): DoctorFinding | undefined {
  if (held.length === 0) return undefined;
  const message =
    held.length === 1
      ? `1 tool of ${server} changed its definition since you allowed it, and is held back (agents do not see it): ${held.join(', ')}`
      : `${held.length} tools of ${server} changed their definitions since you allowed them, and are held back (agents do not see them): ${held.join(', ')}`;
  return {
    code: 'TOOLS_CHANGED',
    level: 'warn',
    subject: server,
    message,
    fix: reviewCommand(server),
  };
}

function missingSecrets(record: ServerRecord, stored: readonly SecretRef[]): DoctorFinding[] {
  const held = new Set(stored.map(secretKey));
  return secretRefsOf(record)
    .filter((secret) => !held.has(secretKey(secret)))
    .map((secret) => ({
      code: 'SECRET_MISSING' as const,
      level: 'fail' as const,
      subject: record.name,
      message: `the secret ${secret.kind === 'env' ? 'env var' : 'header'} ${secret.name} of ${record.name} is not set`,
      fix: `coffer secrets set ${record.name} --${secret.kind} ${secret.name}`,
    }));
}

/**
 * A secret the keychain keeps that no server names: left by a server removed, or a secret
 * unset, before Coffer deleted those with it, or where the keychain refused the delete.
 * Nothing uses it; it is a credential lying about, and the fix deletes it.
 */
export function unusedSecretFindings(
  records: readonly ServerRecord[],
  stored: readonly SecretRef[],
): DoctorFinding[] {
  const named = new Set(records.flatMap(secretRefsOf).map(secretKey));
  const servers = new Set(records.map((record) => record.name));
  return stored
    .filter((ref) => !named.has(secretKey(ref)))
    .map((ref) => ({
      code: 'SECRET_UNUSED' as const,
      level: 'warn' as const,
      subject: 'keychain',
      message: servers.has(ref.server)
        ? `the keychain keeps ${ref.kind} ${ref.name} of ${ref.server}, which ${ref.server} no longer names`
        : `the keychain keeps ${ref.kind} ${ref.name} of ${ref.server}, a server Coffer no longer has`,
      fix: `coffer secrets remove ${ref.server} --${ref.kind} ${ref.name}`,
    }));
}

/**
 * Two enabled servers that start the same way (domain/same-launch.ts) are one server served
 * twice: every agent lists its tools twice, under two names. Said of the later one. A
 * disabled copy is left out: agents do not see it, and it may be kept on purpose. Two
 * whose secret headers hold different values (`sameSecrets`, daemon/secret-header-twins.ts)
 * are two accounts of one service, each with its own tools: not said.
 */
export function duplicateFindings(
  records: readonly ServerRecord[],
  sameSecrets: (a: ServerRecord, b: ServerRecord) => boolean = () => true,
): DoctorFinding[] {
  const enabled = records.filter((record) => record.enabled).sort((a, b) => a.id - b.id);
  return enabled.flatMap((record, index) => {
    const first = enabled
      .slice(0, index)
      .find((earlier) => sameLaunch(earlier, record) && sameSecrets(earlier, record));
    if (first === undefined) return [];
    return [
      {
        code: 'SERVER_DUPLICATE',
        level: 'warn',
        subject: record.name,
        message: `starts the same server as "${first.name}" (same command and settings): agents list its tools twice`,
        fix: `keep one: coffer mcp remove ${record.name}`,
      },
    ];
  });
}

/**
 * A credential kept as a plain env or header value, from before the server store refused
 * them (gateway/plain-credential-guard.ts): the database holds it, and the API and `coffer
 * mcp show` print it. Said of disabled servers too, which are stored all the same; the
 * finding names the kind of credential, never the value.
 */
export function plainCredentialFindings(records: readonly ServerRecord[]): DoctorFinding[] {
  return records.flatMap((record) => [
    ...urlCredentials(record.url).map((where) => ({
      code: 'SECRET_IN_DEFINITION' as const,
      level: 'warn' as const,
      subject: record.name,
      message: `the URL of ${record.name} holds a credential (${where}): the database keeps it, and the API, coffer mcp show and coffer config export print it`,
      fix: `if the server also takes it as a header, keep it there: coffer mcp edit ${record.name} --url <the URL without it> --secret-header <Name>`,
    })),
    ...plainCredentials(record).map(({ kind, name, shape }) => ({
      code: 'SECRET_IN_DEFINITION' as const,
      level: 'warn' as const,
      subject: record.name,
      message: `${kind} ${name} of ${record.name} holds a credential (${shape}) as a plain value: the database keeps it, and the API and coffer mcp show print it`,
      fix: `move it to the keychain: coffer mcp edit ${record.name} --unset-${kind === 'env' ? 'env' : 'header'} ${name} --secret-${kind} ${name} (it asks for the value), or in coffer ui, edit ${record.name} and put ${name} under Secrets`,
    })),
  ]);
}
