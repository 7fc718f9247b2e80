import type { Command } from 'commander';
import {
  checkShims,
  COFFER_ENTRY,
  describeLocation,
  staleTokenEntries,
  type ShimCheck,
  type StaleTokenEntry,
} from '../../agents/index.js';
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
    return { report: await api.get<DoctorReport>('/doctor'), daemon: api.daemon };
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

function agentFindings(checks: readonly ShimCheck[]): DoctorFinding[] {
  return checks.flatMap((check): DoctorFinding[] => {
    const where = describeLocation(check.location);
    if (check.unreadable)
      return [
        {
          code: 'AGENT_CONFIG_UNREADABLE',
          level: 'warn',
          subject: check.agent.id,
          message: `${check.agent.displayName}: ${where} does not parse, so Coffer cannot check or edit it`,
          fix: `fix the file by hand, then: coffer agents list`,
        },
      ];
    if (check.problem === undefined) return [];
    return [
      {
        code: 'AGENT_SHIM_BROKEN',
        level: 'fail',
        subject: check.agent.id,
        message: `${check.agent.displayName} (${where}): ${check.problem}`,
        fix: `coffer agents install ${check.agent.id}`,
      },
    ];
  });
}

function staleTokenFinding({ agent, location, name }: StaleTokenEntry): DoctorFinding {
  const scope = location.scope === 'user' ? '' : ` --scope ${location.scope}`;
  // The "coffer" entry itself is replaced by install; another one goes with --replace.
  const replace = name === COFFER_ENTRY ? '' : ' --replace';
  return {
    code: 'AGENT_TOKEN_STALE',
    level: 'fail',
    subject: agent.id,
    message: `${agent.displayName} (${describeLocation(location)}): "${name}" reaches Coffer over HTTP with an old token (the daemon makes a new one at each start), so Coffer refuses it`,
    fix: `coffer agents install ${agent.id}${scope}${replace}: the shim entry reads the current token itself`,
  };
}

/** Everything `coffer doctor` prints: the daemon's report plus the CLI's own checks. */
export async function diagnose(context: CliContext): Promise<DoctorOutput> {
  const found = await daemonReport(context);
  const agents = agentContext(context);
  const checks = checkShims(agents);
  const report = 'report' in found ? found.report : undefined;
  const stale = 'daemon' in found ? staleTokenEntries(agents, found.daemon) : [];
  const findings = [
    ...('finding' in found ? [found.finding] : []),
    ...(report?.findings ?? []),
    ...agentFindings(checks),
    ...stale.map(staleTokenFinding),
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
    agents: checks
      .filter((check) => !check.unreadable)
      .map((check) => ({
        id: check.agent.id,
        name: check.agent.displayName,
        config: check.location.path,
        shim_ok: check.problem === undefined,
        problem: check.problem ?? null,
      })),
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
