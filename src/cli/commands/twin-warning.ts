import { sameLaunch, type KnownServer } from '../../domain/same-launch.js';
import type { ApiClient } from '../api-client.js';
import type { CliContext } from '../cli-context.js';

/**
 * A server just added that starts exactly as one Coffer has (same command and settings,
 * see domain/same-launch.ts) is served twice: every agent lists its tools twice, under two
 * names. Said at once, on stderr; the server is added all the same (two copies may be
 * meant, e.g. one kept disabled), and a list that cannot be had prints nothing.
 */
export async function warnTwin(context: CliContext, api: ApiClient, added: string): Promise<void> {
  let servers: readonly KnownServer[];
  try {
    servers = (await api.get<{ servers: KnownServer[] }>('/servers')).servers;
  } catch {
    return;
  }
  const self = servers.find((server) => server.name === added);
  if (self === undefined) return;
  const twin = servers.find((server) => server.name !== added && sameLaunch(server, self));
  if (twin === undefined) return;
  context.stderr.write(
    `coffer: warning: "${added}" starts the same server as "${twin.name}" (same command and settings): agents list its tools twice\n` +
      `  fix: keep one: coffer mcp remove ${added}\n`,
  );
}
