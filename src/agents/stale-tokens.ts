import { agentStatuses, type AgentStatus, type LocationStatus } from './agent-status.js';
import { overHttpEntry } from './over-http-entry.js';
import type { AgentContext, AgentDefinition, ConfigLocation } from './types.js';

/**
 * `coffer doctor`'s look at agent entries that reach Coffer over HTTP. The daemon makes a
 * new token at each start (docs/SECURITY.md), and an entry written with the token of the
 * day keeps sending it: after the next restart every request is refused with 401, and
 * the agent says no more than "failed to connect".
 */
export interface StaleTokenEntry {
  readonly agent: AgentDefinition;
  readonly location: ConfigLocation;
  /** The entry's name in the agent's file. */
  readonly name: string;
}

export interface RunningDaemon {
  readonly port: number;
  readonly token: string;
}

/**
 * The token a header value sends, when it is written out: one the agent fills in
 * (`${VAR}`, `${env:VAR}`, `$VAR`) cannot be read from here.
 */
function writtenBearer(headers: Readonly<Record<string, string>>): string | undefined {
  const value = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization');
  const match = value === undefined ? null : /^Bearer\s+(\S+)$/i.exec(value[1].trim());
  const token = match?.[1];
  return token === undefined || token.includes('$') ? undefined : token;
}

function staleIn(agent: AgentDefinition, status: LocationStatus, daemon: RunningDaemon) {
  const { location, entries } = status;
  return Object.entries(entries).flatMap(([name, raw]): StaleTokenEntry[] => {
    const entry = overHttpEntry(agent, raw, daemon.port);
    if (entry === undefined || !entry.enabled) return [];
    const token = writtenBearer(entry.headers);
    return token === undefined || token === daemon.token ? [] : [{ agent, location, name }];
  });
}

/**
 * Every enabled entry, in every agent's files, that sends this daemon a token not its own.
 * `statuses`: the agents' files as the caller read them, so that each is read once.
 */
export function staleTokenEntries(
  context: AgentContext,
  daemon: RunningDaemon,
  statuses: readonly AgentStatus[] = agentStatuses(context),
): StaleTokenEntry[] {
  return statuses.flatMap(({ agent, locations }) =>
    locations.flatMap((status) => staleIn(agent, status, daemon)),
  );
}
