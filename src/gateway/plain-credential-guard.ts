import { plainCredentials } from '../domain/credential-shapes.js';
import { CofferError } from '../domain/errors.js';
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
      refuse(definition);
      return servers.create(definition);
    },
    update: async (name, patch) => {
      refuse(patch);
      return servers.update(name, patch);
    },
    remove: (name) => servers.remove(name),
  };
}

/** "env.NAME: …" and "headers.Name: …", as the schema's errors name a field (the UI's form shows it there). */
function refuse(values: Parameters<typeof plainCredentials>[0]): void {
  const [found] = plainCredentials(values);
  if (found === undefined) return;
  const { kind, name, shape } = found;
  const [field, secrets] = kind === 'env' ? ['env', 'secret_env'] : ['headers', 'secret_headers'];
  throw new CofferError(
    'INVALID_INPUT',
    `${field}.${name}: holds a credential (${shape}); a secret does not go into a server's definition`,
    {
      hint: `keep it as a secret: name it in ${secrets} and store its value (coffer secrets set <server> --${kind} ${name}; in the UI, the server form's Secrets)`,
    },
  );
}
