import {
  serverFindingCodes,
  type DoctorAgent,
  type DoctorFinding,
  type DoctorReport,
  type DoctorServer,
} from '../../domain/ports.js';
import type { Colors } from './colors.js';

/** `coffer doctor --json`: the daemon's report (null parts when it is not running) plus agents. */
export interface DoctorOutput {
  readonly ok: boolean;
  readonly coffer_version: string;
  readonly node_version: string;
  readonly platform: string;
  readonly daemon: DoctorReport['daemon'] | null;
  readonly keychain: DoctorReport['keychain'] | null;
  readonly search_path: string | null;
  readonly servers: readonly DoctorServer[];
  readonly agents: readonly DoctorAgent[];
  readonly findings: readonly DoctorFinding[];
}

/** `failing`: a server a finding says is broken (a secret or a folder missing), not only its state. */
function serverLine(server: DoctorServer, failing: boolean, colors: Colors): string {
  const broken = server.enabled && (server.state === 'error' || server.state === 'crash-loop');
  const mark = !server.enabled
    ? colors.dim('-')
    : broken || failing || (server.command !== null && server.command_path === null)
      ? colors.red('✗')
      : colors.green('✓');
  const how =
    server.command === null
      ? server.transport
      : `${server.command} → ${server.command_path ?? colors.red('not found')}`;
  const started =
    server.started_at === null
      ? ''
      : `, started ${server.started_at}${server.start_ms === null ? '' : ` (took ${(server.start_ms / 1000).toFixed(1)} s)`}`;
  return `  ${mark} ${server.name}: ${server.state === 'starting' ? 'starting…' : server.state}, ${how}${started}`;
}

function findingLines(finding: DoctorFinding, colors: Colors): string[] {
  const mark = finding.level === 'fail' ? colors.red('✗') : colors.yellow('!');
  const lines = [`  ${mark} ${finding.code} (${finding.subject}): ${finding.message}`];
  if (finding.fix !== null) lines.push(`      fix: ${finding.fix}`);
  return lines;
}

export function renderDoctor(output: DoctorOutput, colors: Colors): string {
  const lines = [
    `Coffer ${output.coffer_version}, Node ${output.node_version}, ${output.platform}`,
    output.daemon === null
      ? `Daemon:   ${colors.red('not running')}`
      : `Daemon:   running, pid ${output.daemon.pid}, port ${output.daemon.port}, since ${output.daemon.started_at}`,
  ];
  if (output.keychain !== null)
    lines.push(
      `Secrets:  ${output.keychain.backend === 'keychain' ? 'OS keychain' : `file ${output.keychain.location ?? ''}`}`,
    );
  if (output.search_path !== null) lines.push(`PATH:     ${output.search_path}`);
  lines.push('', output.servers.length === 0 ? 'Servers: none registered' : 'Servers:');
  const failing = new Set(
    output.findings
      .filter(({ code, level }) => level === 'fail' && serverFindingCodes.has(code))
      .map(({ subject }) => subject),
  );
  lines.push(
    ...output.servers.map((server) => serverLine(server, failing.has(server.name), colors)),
  );
  lines.push('', output.agents.length === 0 ? 'Agents: Coffer is not installed in any' : 'Agents:');
  for (const agent of output.agents)
    lines.push(
      `  ${agent.shim_ok ? colors.green('✓') : colors.red('✗')} ${agent.name}: ${agent.config}${agent.problem === null ? '' : `: ${agent.problem}`}`,
    );
  lines.push('');
  if (output.findings.length === 0) lines.push(colors.green('No problems found.'));
  else {
    const fails = output.findings.filter((finding) => finding.level === 'fail').length;
    lines.push(`Problems: ${fails} broken, ${output.findings.length - fails} to know`);
    for (const finding of output.findings) lines.push(...findingLines(finding, colors));
  }
  return `${lines.join('\n')}\n`;
}
