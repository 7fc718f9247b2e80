import Table from 'cli-table3';
import {
  agentStatuses,
  brokenShims,
  describeProblem,
  leftToImport,
  locationFields,
  shimKey,
  type AgentStatus,
  type LocationStatus,
} from '../../agents/index.js';
import type { AgentListOptions } from '../../domain/ports.js';
import type { CliContext } from '../cli-context.js';
import { colorsFor, type Colors } from '../render/colors.js';
import { agentContext, knownServers, writeJson } from './agents-shared.js';

/** What the rows are read with besides the files themselves. */
interface Listing {
  /** Why an installed entry no longer runs (the doctor's check), by shimKey. */
  readonly shims: ReadonlyMap<string, string>;
  /** How many entries an import would still act on: known only while the daemon runs. */
  readonly toImport?: (status: AgentStatus, row: LocationStatus) => number;
}

function agentJson(status: AgentStatus, listing: Listing) {
  return {
    id: status.agent.id,
    name: status.agent.displayName,
    present: status.present,
    docs: status.agent.docs,
    locations: status.locations.map((row) => ({
      ...locationFields(status.agent.id, row, listing.shims),
      ...(listing.toImport === undefined ? {} : { to_import: listing.toImport(status, row) }),
      ...(row.problem === undefined ? {} : { problem: row.problem }),
    })),
  };
}

function scopeCell(status: LocationStatus): string {
  const { scope, label } = status.location;
  return label === undefined ? scope : `${scope} (${label})`;
}

/** `3`, or `3 (2 to import)` while the daemon says what Coffer has already. */
function serversCell(status: AgentStatus, row: LocationStatus, listing: Listing): string {
  const left = listing.toImport?.(status, row) ?? 0;
  return left === 0 ? String(row.servers) : `${row.servers} (${left} to import)`;
}

function locationRow(
  status: AgentStatus,
  row: LocationStatus,
  listing: Listing,
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
  const broken = listing.shims.has(shimKey(status.agent.id, row.location));
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
    row.exists ? serversCell(status, row, listing) : '-',
    coffer,
    row.exists ? path : colors.dim(`${path} (no file)`),
  ];
}

function rowsOf(status: AgentStatus, listing: Listing, colors: Colors): string[][] {
  if (!status.present)
    return [[status.agent.id, '-', '-', '-', colors.dim('not found on this machine')]];
  const existing = status.locations.filter((row) => row.exists);
  const shown = existing.length > 0 ? existing : status.locations.slice(0, 1);
  return shown.map((row) => locationRow(status, row, listing, colors));
}

function renderTable(statuses: readonly AgentStatus[], listing: Listing, colors: Colors): string {
  const table = new Table({
    head: ['agent', 'scope', 'servers', 'coffer', 'config'].map((h) => colors.bold(h)),
    style: { head: [], border: [] },
    colAligns: ['left', 'left', 'right', 'left', 'left'],
  });
  for (const status of statuses) table.push(...rowsOf(status, listing, colors));
  return `${table.toString()}\n`;
}

export interface ListFlags {
  json?: boolean;
}

/**
 * What Coffer has, from the daemon if it runs: listing never starts one, and a daemon
 * that cannot be asked leaves the count out rather than failing the list.
 */
async function listOptions(context: CliContext): Promise<AgentListOptions | undefined> {
  try {
    const api = await context.api({ spawn: false });
    return { known: await knownServers(api), ownPort: api.daemon.port };
  } catch {
    return undefined;
  }
}

/** `coffer agents list [--json]`: the agents on this machine and Coffer's place in them. */
export async function listAgents(context: CliContext, options: ListFlags): Promise<void> {
  const agents = agentContext(context);
  const statuses = agentStatuses(agents);
  const known = await listOptions(context);
  const listing: Listing = {
    shims: brokenShims(agents, statuses),
    ...(known === undefined
      ? {}
      : {
          toImport: (status: AgentStatus, row: LocationStatus) =>
            leftToImport(context.paths.home, agents, status.agent, row, known),
        }),
  };
  if (options.json === true)
    return writeJson(context, { agents: statuses.map((status) => agentJson(status, listing)) });
  context.stdout.write(renderTable(statuses, listing, colorsFor(context.stdout, context.env)));
}
