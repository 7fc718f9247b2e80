import { listingField, type CapabilityType } from '../../domain/capability.js';
import { closestName } from '../../domain/closest-name.js';
import type { ServerCapabilities } from '../../domain/ports.js';
import type { ApiClient } from '../api-client.js';
import type { ServerView } from '../render/server-table.js';
import { serverPath } from './mcp-list.js';

/** Names of one kind given to a command for one server. */
export interface NamedGroup {
  readonly type: CapabilityType;
  readonly keys: readonly string[];
}

/** "tool" / "tools", as the commands say them. */
export const NOUN: Readonly<Record<CapabilityType, [string, string]>> = {
  tool: ['tool', 'tools'],
  prompt: ['prompt', 'prompts'],
  resource: ['resource', 'resources'],
  resource_template: ['resource template', 'resource templates'],
};

/**
 * A switch or a policy for a name the server does not list is kept (it applies if the
 * name appears), but a typo must not pass in silence: `disable --tool write_fil` leaves
 * write_file on, `policy --tool delete_fil deny` leaves delete_file allowed. Only a server
 * that has listed before is asked (it may be started to list again, as `coffer mcp list
 * --tree` does): one that never started is not started for a name.
 */
export async function unknownNameWarnings(
  api: ApiClient,
  name: string,
  groups: readonly NamedGroup[],
): Promise<string[]> {
  const { server } = await api.get<{ server: ServerView }>(serverPath(name));
  if (server.status.counts === null) return [];
  const capabilities = await api.get<ServerCapabilities>(serverPath(name, '/capabilities'));
  return groups.flatMap((group) => {
    const listing = capabilities[listingField[group.type]];
    if (listing.status !== 'ok') return [];
    const known = listing.items.filter((item) => item.definition !== null).map((item) => item.key);
    return group.keys
      .filter((key) => !known.includes(key))
      .map((key) => {
        const meant = closestName(key, known);
        const guess = meant === undefined ? '' : ` (did you mean "${meant}"?)`;
        return `coffer: warning: "${name}" lists no ${NOUN[group.type][0]} "${key}"${guess}; the choice is kept and applies if it appears\n`;
      });
  });
}
