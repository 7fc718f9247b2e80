import type { DoctorFinding, FindingCode } from '../../domain/ports.js';
import type { ApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';

/** What doctor can tell about a server that has never run. */
const KNOWN_BEFORE_START: ReadonlySet<FindingCode> = new Set([
  'COMMAND_NOT_FOUND',
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
    report = await api.get<{ findings?: DoctorFinding[] }>('/doctor');
  } catch {
    return;
  }
  for (const finding of report.findings ?? []) {
    if (!servers.includes(finding.subject) || !KNOWN_BEFORE_START.has(finding.code)) continue;
    const fix = finding.fix === null ? '' : `\n  fix: ${finding.fix}`;
    context.stderr.write(`coffer: warning: ${finding.subject}: ${finding.message}${fix}\n`);
  }
}
