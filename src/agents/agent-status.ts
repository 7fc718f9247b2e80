import { existsSync } from 'node:fs';
import { agentCatalog } from './catalog/index.js';
import type { ParseProblem } from './documents/config-document.js';
import { loadConfig } from './documents/load-document.js';
import { COFFER_ENTRY, isCofferEntry } from './install-plan.js';
import { distinctLocations } from './locations.js';
import type { AgentContext, AgentDefinition, ConfigLocation } from './types.js';

/** What `coffer agents list` shows: which agents are here, their files, and Coffer's place in them. */

export interface LocationStatus {
  readonly location: ConfigLocation;
  readonly exists: boolean;
  /** Set when the file does not parse (it is then never edited). */
  readonly problem?: ParseProblem;
  /** Entries other than Coffer's own. */
  readonly servers: number;
  readonly installed: boolean;
  /** Every entry as read, Coffer's included (none when the file is absent or malformed). */
  readonly entries: Readonly<Record<string, unknown>>;
}

export interface AgentStatus {
  readonly agent: AgentDefinition;
  readonly present: boolean;
  readonly locations: readonly LocationStatus[];
}

export function locationStatus(agent: AgentDefinition, location: ConfigLocation): LocationStatus {
  const loaded = loadConfig(location);
  if (loaded.state === 'malformed')
    return {
      location,
      exists: true,
      problem: loaded.problem,
      servers: 0,
      installed: false,
      entries: {},
    };
  const servers = loaded.document.servers(location.serversKey) ?? {};
  const own = servers[COFFER_ENTRY];
  const installed = own !== undefined && isCofferEntry(agent, own);
  const count = Object.keys(servers).length - (installed ? 1 : 0);
  return {
    location,
    exists: loaded.state === 'present',
    servers: count,
    installed,
    entries: servers,
  };
}

export function agentStatus(agent: AgentDefinition, context: AgentContext): AgentStatus {
  const locations = distinctLocations(agent.locations(context)).map((location) =>
    locationStatus(agent, location),
  );
  const present =
    locations.some((status) => status.exists) ||
    agent.markers(context).some((marker) => existsSync(marker));
  return { agent, present, locations };
}

export function agentStatuses(context: AgentContext): AgentStatus[] {
  return agentCatalog.map((agent) => agentStatus(agent, context));
}
