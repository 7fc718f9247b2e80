import Table from 'cli-table3';
import {
  agentStatuses,
  brokenShims,
  describeProblem,
  locationFields,
  shimKey,
  type AgentStatus,
  type LocationStatus,
} from '../../agents/index.js';
import type { CliContext } from '../cli-context.js';
import { colorsFor, type Colors } from '../render/colors.js';
import { agentContext, writeJson } from './agents-shared.js';

/** Why an installed entry no longer runs (the doctor's check), by shimKey. */
type ShimProblems = ReadonlyMap<string, string>;

function agentJson(status: AgentStatus, shims: ShimProblems) {
  return {
    id: status.agent.id,
    name: status.agent.displayName,
    present: status.present,
    docs: status.agent.docs,
    locations: status.locations.map((row) => ({
      ...locationFields(status.agent.id, row, shims),
      ...(row.problem === undefined ? {} : { problem: row.problem }),
    })),
  };
}

function scopeCell(status: LocationStatus): string {
  const { scope, label } = status.location;
  return label === undefined ? scope : `${scope} (${label})`;
}

function locationRow(
  status: AgentStatus,
  row: LocationStatus,
  shims: ShimProblems,
  colors: Colors,
): string[] {
  const { path } = row.location;
  if (row.problem !== undefined)
    return [
      status.agent.id,
      scopeCell(row),
      '-',
      colors.red('malformed'),
      describeProblem(path, row.problem),
    ];
  const broken = shims.has(shimKey(status.agent.id, row.location));
  const coffer = broken
    ? colors.red('broken (coffer doctor)')
    : row.installed
      ? colors.green('installed')
      : row.exists
        ? 'no'
        : '-';
  return [
    status.agent.id,
    scopeCell(row),
    row.exists ? String(row.servers) : '-',
    coffer,
    row.exists ? path : colors.dim(`${path} (no file)`),
  ];
}

function rowsOf(status: AgentStatus, shims: ShimProblems, colors: Colors): string[][] {
  if (!status.present)
    return [[status.agent.id, '-', '-', '-', colors.dim('not found on this machine')]];
  const existing = status.locations.filter((row) => row.exists);
  const shown = existing.length > 0 ? existing : status.locations.slice(0, 1);
  return shown.map((row) => locationRow(status, row, shims, colors));
}

function renderTable(
  statuses: readonly AgentStatus[],
  shims: ShimProblems,
  colors: Colors,
): string {
  const table = new Table({
    head: ['agent', 'scope', 'servers', 'coffer', 'config'].map((h) => colors.bold(h)),
    style: { head: [], border: [] },
    colAligns: ['left', 'left', 'right', 'left', 'left'],
  });
  for (const status of statuses) table.push(...rowsOf(status, shims, colors));
  return `${table.toString()}\n`;
}

export interface ListFlags {
  json?: boolean;
}

/** `coffer agents list [--json]`: the agents on this machine and Coffer's place in them. */
export function listAgents(context: CliContext, options: ListFlags): void {
  const agents = agentContext(context);
  const statuses = agentStatuses(agents);
  const shims = brokenShims(agents, statuses);
  if (options.json === true)
    return writeJson(context, { agents: statuses.map((status) => agentJson(status, shims)) });
  context.stdout.write(renderTable(statuses, shims, colorsFor(context.stdout, context.env)));
}
