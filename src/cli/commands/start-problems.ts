import { findCommand, isDirectory, isFile } from '../../config/command-lookup.js';
import { scriptPathOf } from '../../config/script-path.js';
import {
  commandNotFound,
  cwdNotFound,
  scriptNotFound,
  type DoctorFinding,
  type FindingCode,
} from '../../domain/ports.js';
import type { ServerDefinition } from '../../domain/server-definition.js';
import type { ApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';

/** What doctor can tell about a server that has never run. */
const KNOWN_BEFORE_START: ReadonlySet<FindingCode> = new Set([
  'COMMAND_NOT_FOUND',
  'CWD_NOT_FOUND',
  'SCRIPT_NOT_FOUND',
  'SECRET_MISSING',
  'SERVER_DUPLICATE',
]);

/**
 * What would stop servers just added from starting, or make agents see one twice, said
 * at once rather than at an agent's first call: the daemon's doctor report (the PATH it
 * searches, the secrets it holds, the servers it has), printed as warnings on stderr. The
 * servers are added either way, and a report that cannot be had is no reason to fail the
 * command.
 */
export async function warnStartProblems(
  context: CliContext,
  api: ApiClient,
  servers: readonly string[],
): Promise<void> {
  if (servers.length === 0) return;
  let report: { findings?: readonly DoctorFinding[] };
  try {
    report = await api.get<{ findings?: DoctorFinding[] }>('/doctor?agents=no');
  } catch {
    return;
  }
  for (const finding of report.findings ?? []) {
    if (!servers.includes(finding.subject) || !KNOWN_BEFORE_START.has(finding.code)) continue;
    warn(context, finding.subject, finding.message, finding.fix);
  }
}

function warn(context: CliContext, server: string, message: string, fix: string | null): void {
  const advice = fix === null ? '' : `\n  fix: ${fix}`;
  context.stderr.write(`coffer: warning: ${server}: ${message}${advice}\n`);
}

/**
 * The local programs of a plan that would not start because their working directory is
 * not there, or their command is not on the PATH the daemon searches (the doctor report
 * names it), in the doctor's words: before
 * anything is added (a dry run), or for a config import, whose plan already lists the
 * secrets to set (the doctor's other findings would say them twice).
 */
export async function warnPlannedProblems(
  context: CliContext,
  api: ApiClient,
  planned: readonly { readonly server: string; readonly definition: ServerDefinition }[],
): Promise<void> {
  const local = planned.filter(({ definition }) => definition.transport === 'stdio');
  if (local.length === 0) return;
  let searchPath: string | null | undefined;
  try {
    searchPath = (await api.get<{ search_path?: string | null }>('/doctor?agents=no')).search_path;
  } catch {
    return;
  }
  for (const { server, definition } of local) {
    const { cwd } = definition;
    if (cwd !== undefined && !isDirectory(cwd)) {
      warn(context, server, cwdNotFound(cwd), 'create it, or give the server a folder that exists');
      continue;
    }
    const command = definition.command ?? '';
    const found = findCommand(command, {
      platform: process.platform,
      searchPath: searchPath ?? undefined,
      ...(definition.cwd === undefined ? {} : { cwd: definition.cwd }),
    });
    if (found === undefined) {
      const fix = `install ${command}, or give the server its full path (\`coffer doctor\` says how)`;
      warn(context, server, commandNotFound(command), fix);
      continue;
    }
    const script = scriptPathOf(command, definition.args, definition.cwd);
    if (script !== undefined && !isFile(script))
      warn(context, server, scriptNotFound(script), 'build or install it there, or give its path');
  }
}
