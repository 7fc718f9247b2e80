import { serverDisabled } from '../domain/capability.js';
import { CofferError } from '../domain/errors.js';
import { serverNameProblem } from '../domain/naming.js';
import type { GatewayContext } from './gateway-context.js';

/** Why `/servers/<name>/mcp` cannot serve `server`, with the HTTP status to answer. */
export interface ServerRefusal {
  readonly status: number;
  readonly error: CofferError;
}

const LIST_HINT = 'see `coffer mcp list` for the registered servers';

/**
 * A single-server endpoint serves a registered, enabled server only: anything else
 * opened a session (or answered a 2026-07-28 request) that listed and called nothing, so
 * a typo in an agent's URL looked like a server without tools. A disabled server is
 * refused as /mcp refuses its tools, with the command that switches it on. The registry
 * is a snapshot in memory, so this is a lookup, not a store read.
 */
export async function serverRefusal(
  context: GatewayContext,
  server: string,
): Promise<ServerRefusal | undefined> {
  const problem = serverNameProblem(server);
  if (problem !== undefined)
    return notFound(`"${server.slice(0, 64)}" is not a server name: ${problem}`, server);
  if ((await context.enabledServers(server)).length > 0) return undefined;
  if ((await context.isDisabled?.(server)) === true)
    return { status: 409, error: serverDisabled(server) };
  return notFound(`No server named "${server}"`, server);
}

function notFound(message: string, server: string): ServerRefusal {
  const data = { server: server.slice(0, 64) };
  return {
    status: 404,
    error: new CofferError('SERVER_NOT_FOUND', message, { hint: LIST_HINT, data }),
  };
}
