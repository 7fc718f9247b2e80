import type { AgentListOptions, AgentView } from '../domain/ports.js';
import { agentStatuses, type AgentStatus, type LocationStatus } from './agent-status.js';
import { describeProblem } from './documents/load-document.js';
import { planImport, type ImportAction } from './import-plan.js';
import { importedFrom } from './import-records.js';
import { placeOf } from './launch-folder.js';
import { brokenShims, shimKey } from './shim-check.js';
import type { AgentContext, AgentDefinition } from './types.js';

/**
 * What the Agents page shows of each agent (GET /api/v1/agents): its files, whether
 * Coffer is installed there and still runs, and what an import would still do.
 */

/** Adds it (a clash under another name), or notes it as served by Coffer for --replace. */
const IMPORT_ACTS_ON: ReadonlySet<ImportAction> = new Set(['add', 'clash', 'same']);

/** How many of a file's entries an import would act on now (see AgentLocationView). */
export function leftToImport(
  cofferHome: string,
  context: AgentContext,
  agent: AgentDefinition,
  status: LocationStatus,
  options: AgentListOptions,
): number {
  if (!status.exists || status.problem !== undefined || status.servers === 0) return 0;
  const imported = importedFrom(cofferHome, status.location);
  const place = placeOf(status.location, context);
  return planImport(agent, status.entries, { ...options, imported, place }).filter(({ action }) =>
    IMPORT_ACTS_ON.has(action),
  ).length;
}

/** One file as both the Agents page and `coffer agents list --json` show it. */
export function locationFields(
  agent: string,
  status: LocationStatus,
  shims: ReadonlyMap<string, string>,
) {
  const { location } = status;
  const broken = shims.get(shimKey(agent, location));
  return {
    scope: location.scope,
    ...(location.label === undefined ? {} : { label: location.label }),
    path: location.path,
    exists: status.exists,
    servers: status.servers,
    coffer_installed: status.installed,
    ...(broken === undefined ? {} : { coffer_problem: broken }),
  };
}

function agentView(
  cofferHome: string,
  context: AgentContext,
  status: AgentStatus,
  options: AgentListOptions,
  shims: ReadonlyMap<string, string>,
): AgentView {
  const { agent } = status;
  return {
    id: agent.id,
    name: agent.displayName,
    present: status.present,
    docs: agent.docs,
    locations: status.locations.map((location) => ({
      ...locationFields(agent.id, location, shims),
      to_import: leftToImport(cofferHome, context, agent, location, options),
      ...(location.problem === undefined
        ? {}
        : { problem: describeProblem(location.location.path, location.problem) }),
    })),
  };
}

export function agentViews(
  cofferHome: string,
  context: AgentContext,
  options: AgentListOptions,
): AgentView[] {
  const statuses = agentStatuses(context);
  const shims = brokenShims(context, statuses);
  return statuses.map((status) => agentView(cofferHome, context, status, options, shims));
}
