import { existsSync } from 'node:fs';
import { CofferError } from '../domain/errors.js';
import type { AgentContext, AgentDefinition, ConfigLocation, Scope } from './types.js';

/** The agent's config for one scope: the first candidate that exists, else the first. */
export function chooseLocation(
  agent: AgentDefinition,
  context: AgentContext,
  scope: Scope,
): ConfigLocation {
  const all = agent.locations(context);
  const candidates = all.filter((location) => location.scope === scope);
  const chosen = candidates.find((location) => existsSync(location.path)) ?? candidates[0];
  if (chosen !== undefined) return chosen;
  const available = [...new Set(all.map((location) => location.scope))].join(', ');
  throw new CofferError(
    'INVALID_INPUT',
    `${agent.displayName} has no ${scope}-scope configuration`,
    {
      hint: `use --scope ${available}`,
    },
  );
}

/**
 * Each file (and servers key in it) once: run from the home folder, a project's file can
 * be the user's own (Cursor's `~/.cursor/mcp.json`), which would list as two configs with
 * the same servers, and report what is in it twice. The first scope, the user's, names it.
 */
export function distinctLocations(locations: readonly ConfigLocation[]): ConfigLocation[] {
  const seen = new Set<string>();
  return locations.filter((location) => {
    const key = JSON.stringify([location.path, location.serversKey]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A file of the agent's format that is not one of its configs (`coffer agents import
 * <agent> --file`): a server's README snippet, a colleague's config. Read as the agent's
 * first location is, under the same servers key.
 */
export function fileLocation(
  agent: AgentDefinition,
  context: AgentContext,
  path: string,
): ConfigLocation {
  const [first] = agent.locations(context);
  if (first === undefined)
    throw new CofferError('INVALID_INPUT', `${agent.displayName} has no config format to read`);
  return {
    scope: first.scope,
    path,
    format: first.format,
    serversKey: first.serversKey,
  };
}

export function describeLocation(location: ConfigLocation): string {
  const label =
    location.label === undefined ? location.scope : `${location.scope}, ${location.label}`;
  const key = location.serversKey.length > 1 ? ` (${location.serversKey.join(' › ')})` : '';
  return `${location.path}${key} [${label}]`;
}
