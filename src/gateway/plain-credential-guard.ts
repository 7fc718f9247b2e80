import { findCredentialShapes } from '../domain/credential-shapes.js';
import { CofferError } from '../domain/errors.js';
import type { ServerRepository } from '../domain/ports.js';

type Values = Readonly<Record<string, string>> | undefined;

/**
 * The server store refuses a definition whose plain env or header value is shaped like a
 * credential (a GitHub or Slack token, an `sk-` key, `Bearer …`, a JWT, a private key):
 * the definition is kept in the database and shown by `coffer mcp show`, the UI and the
 * API, where no secret may go. Whichever way it comes (the REST API, the UI's form, a
 * config file), the error says where the value belongs. `coffer mcp add` and an agent
 * import move such values to the keychain themselves, so they never meet this.
 */
export function refusingPlainCredentials(servers: ServerRepository): ServerRepository {
  const check = (env: Values, headers: Values): void => {
    refuse('env', 'secret_env', env);
    refuse('header', 'secret_headers', headers);
  };
  return {
    list: () => servers.list(),
    get: (name) => servers.get(name),
    create: async (definition) => {
      check(definition.env, definition.headers);
      return servers.create(definition);
    },
    update: async (name, patch) => {
      check(patch.env, patch.headers);
      return servers.update(name, patch);
    },
    remove: (name) => servers.remove(name),
  };
}

/** "env.NAME: …" and "headers.Name: …", as the schema's errors name a field (the UI's form shows it there). */
function refuse(kind: 'env' | 'header', field: string, values: Values): void {
  for (const [name, value] of Object.entries(values ?? {})) {
    const [shape] = findCredentialShapes(value);
    if (shape === undefined) continue;
    const path = `${kind === 'env' ? 'env' : 'headers'}.${name}`;
    throw new CofferError(
      'INVALID_INPUT',
      `${path}: holds a credential (${shape}); a secret does not go into a server's definition`,
      {
        hint: `keep it as a secret: name it in ${field} and store its value (coffer secrets set <server> --${kind} ${name}; in the UI, the server form's Secrets)`,
      },
    );
  }
}
