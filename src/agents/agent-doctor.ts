import type { DoctorAgent, DoctorFinding } from '../domain/ports.js';
import { agentStatuses } from './agent-status.js';
import { describeLocation } from './locations.js';
import { COFFER_ENTRY } from './install-plan.js';
import { checkShims, type ShimCheck } from './shim-check.js';
import { staleTokenEntries, type StaleTokenEntry } from './stale-tokens.js';
import type { AgentContext } from './types.js';

/** What the doctor says of the agents on this machine, and of each one Coffer is in. */
export interface AgentDoctorReport {
  readonly agents: readonly DoctorAgent[];
  readonly findings: readonly DoctorFinding[];
}

function shimFindings(checks: readonly ShimCheck[]): DoctorFinding[] {
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

/**
 * Does each agent's `coffer` entry still run a shim that is there, does a file not parse,
 * does an entry reach `daemon` over HTTP with an old token (when a daemon runs). The CLI
 * asks it of its own folder's project files, the daemon of its own (the home folder).
 */
export function agentDoctor(
  context: AgentContext,
  daemon?: { readonly port: number; readonly token: string },
): AgentDoctorReport {
  const statuses = agentStatuses(context);
  const checks = checkShims(context, {}, statuses);
  const stale = daemon === undefined ? [] : staleTokenEntries(context, daemon, statuses);
  return {
    agents: checks
      .filter((check) => !check.unreadable)
      .map((check) => ({
        id: check.agent.id,
        name: check.agent.displayName,
        config: check.location.path,
        shim_ok: check.problem === undefined,
        problem: check.problem ?? null,
      })),
    findings: [...shimFindings(checks), ...stale.map(staleTokenFinding)],
  };
}
