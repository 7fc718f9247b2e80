import { plainCredentialError } from '../domain/credential-shapes.js';
import type { ServerRepository } from '../domain/ports.js';

/**
 * The server store refuses a definition whose plain env or header value is shaped like a
 * credential (a GitHub or Slack token, an `sk-` key, `Bearer …`, a JWT, a private key):
 * the definition is kept in the database and shown by `coffer mcp show`, the UI and the
 * API, where no secret may go. Whichever way it comes (the REST API, the UI's form, a
 * config file), the error says where the value belongs. `coffer mcp add` and an agent
 * import move such values to the keychain themselves, so they never meet this.
 */
export function refusingPlainCredentials(servers: ServerRepository): ServerRepository {
  return {
    list: () => servers.list(),
    get: (name) => servers.get(name),
    create: async (definition) => {
      refuse(definition, definition.name);
      return servers.create(definition);
    },
    update: async (name, patch) => {
      refuse(patch, name);
      return servers.update(name, patch);
    },
    check: (definition) => {
      refuse(definition, definition.name);
      servers.check(definition);
    },
    remove: (name) => servers.remove(name),
  };
}

function refuse(values: Parameters<typeof plainCredentialError>[0], server: string): void {
  const error = plainCredentialError(values, server);
  if (error !== undefined) throw error;
}
