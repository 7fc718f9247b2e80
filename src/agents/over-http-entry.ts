import { isOwnEndpoint } from '../domain/own-endpoint.js';
import { isSkipped, type AgentDefinition, type AgentServer } from './types.js';

/**
 * An agent entry that reaches the daemon listening on `port` over HTTP (its `/mcp` or a
 * server's endpoint), as the agent reads it; undefined for any other entry, or when no
 * daemon runs to say which port is Coffer's. `agents install` replaces or names such
 * entries, `coffer doctor` checks the token they send.
 */
export function overHttpEntry(
  agent: AgentDefinition,
  raw: unknown,
  port: number | undefined,
): AgentServer | undefined {
  if (port === undefined) return undefined;
  const entry = agent.parseEntry(raw);
  if (isSkipped(entry) || entry.url === undefined) return undefined;
  return isOwnEndpoint(entry.url, port) ? entry : undefined;
}
