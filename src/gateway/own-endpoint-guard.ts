import { CofferError } from '../domain/errors.js';
import { isOwnEndpoint } from '../domain/own-endpoint.js';
import type { ServerRepository } from '../domain/ports.js';

/**
 * The server store as the daemon on `port` uses it: a definition whose URL is this daemon
 * is refused, whichever way it comes (`coffer mcp add`, an agent import, the UI's form, a
 * config import). An agent that reaches Coffer over HTTP has exactly such an entry.
 */
export function refusingOwnEndpoint(servers: ServerRepository, port: number): ServerRepository {
  const check = (url: string | undefined): void => {
    if (url === undefined || !isOwnEndpoint(url, port)) return;
    throw new CofferError(
      'INVALID_INPUT',
      `${url} is this Coffer daemon: it cannot be its own server`,
      {
        hint: "register the servers themselves in Coffer (coffer agents import <agent> brings an agent's in)",
      },
    );
  };
  return {
    list: () => servers.list(),
    get: (name) => servers.get(name),
    create: async (definition) => {
      check(definition.url);
      return servers.create(definition);
    },
    update: async (name, patch) => {
      check(patch.url);
      return servers.update(name, patch);
    },
    check: (definition) => {
      check(definition.url);
      servers.check(definition);
    },
    remove: (name) => servers.remove(name),
  };
}
