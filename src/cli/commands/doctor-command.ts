import type { Command } from 'commander';
import { agentDoctor } from '../../agents/index.js';
import type { DaemonInfo } from '../../discovery/index.js';
import { packageVersion } from '../../discovery/package-info.js';
import { isCofferError } from '../../domain/errors.js';
import type { DoctorFinding, DoctorReport } from '../../domain/ports.js';
import type { CliContext } from '../cli-context.js';
import { CliExit, ExitCode } from '../output.js';
import { colorsFor } from '../render/colors.js';
import { renderDoctor, type DoctorOutput } from '../render/doctor-lines.js';
import { agentContext } from './agents-shared.js';

/** The daemon's report, or why there is none: a daemon that will not start is a finding. */
async function daemonReport(
  context: CliContext,
): Promise<{ report: DoctorReport; daemon: DaemonInfo } | { finding: DoctorFinding }> {
  try {
    const api = await context.api();
    return { report: await api.get<DoctorReport>('/doctor?agents=no'), daemon: api.daemon };
  } catch (error) {
    if (!isCofferError(error)) throw error;
    return {
      finding: {
        code: 'DAEMON_NOT_RUNNING',
        level: 'fail',
        subject: 'daemon',
        message: `the daemon is not running and could not be started: ${error.message}`,
        fix: error.hint ?? 'read why in its log: coffer logs',
      },
    };
  }
}

/**
 * Everything `coffer doctor` prints: the daemon's report without its agents (asked with
 * `?agents=no`), and the agents' files checked from the folder the CLI runs in instead,
 * its project's files included, so that none is said twice.
 */
export async function diagnose(context: CliContext): Promise<DoctorOutput> {
  const found = await daemonReport(context);
  const report = 'report' in found ? found.report : undefined;
  const agents = agentDoctor(agentContext(context), 'daemon' in found ? found.daemon : undefined);
  const findings = [
    ...('finding' in found ? [found.finding] : []),
    ...(report?.findings ?? []),
    ...agents.findings,
  ];
  return {
    ok: findings.every((finding) => finding.level !== 'fail'),
    coffer_version: report?.coffer_version ?? packageVersion(),
    node_version: report?.node_version ?? process.version,
    platform: report?.platform ?? process.platform,
    daemon: report?.daemon ?? null,
    keychain: report?.keychain ?? null,
    search_path: report?.search_path ?? null,
    servers: report?.servers ?? [],
    agents: agents.agents,
    findings,
  };
}

/** `coffer doctor [--json]`: exit 1 when something is broken. */
export function registerDoctorCommand(program: Command, context: CliContext): void {
  program
    .command('doctor')
    .description('check the set-up: versions, daemon, keychain, server commands, agents')
    .option('--json', 'print the report as JSON')
    .action(async (options: { json?: boolean }) => {
      const output = await diagnose(context);
      context.stdout.write(
        options.json === true
          ? `${JSON.stringify(output, null, 2)}\n`
          : renderDoctor(output, colorsFor(context.stdout, context.env)),
      );
      if (!output.ok) throw new CliExit(ExitCode.GENERIC);
    });
}
