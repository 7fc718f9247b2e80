import { Hono } from 'hono';
import { CofferError } from '../domain/errors.js';
import type { SecretRef, SecretStore } from '../domain/ports.js';
import { secretKey, secretRefsOf, type ServerRecord } from '../domain/server-definition.js';
import { recordAdmin } from './admin-audit.js';
import type { ApiServices } from './api-services.js';
import { readJsonBody } from './parse-request.js';
import { parseSecretInput, parseSecretPath } from './secret-schemas.js';
import { requireServer } from './server-lookup.js';

/** One row of GET /secrets: names and state, never a value. */
export interface SecretView extends SecretRef {
  /** A value is stored in the keychain (or the fallback file). */
  readonly stored: boolean;
  /** The server's definition names it (secret_env / secret_headers). */
  readonly referenced: boolean;
}

/** Every stored secret; where the keychain cannot be searched, the referenced ones found by name. */
async function storedKeys(
  store: SecretStore,
  referenced: readonly SecretRef[],
  services: ApiServices,
): Promise<Set<string>> {
  try {
    return new Set((await store.list()).map(secretKey));
  } catch (error) {
    services.logger?.warn(
      { err: error },
      'the secret store cannot list; checking names one by one',
    );
    const found = await Promise.all(
      referenced.map(async (ref) => (await store.get(ref)) !== undefined),
    );
    return new Set(referenced.filter((_, index) => found[index]).map(secretKey));
  }
}

async function listSecrets(services: ApiServices, store: SecretStore, server: string | undefined) {
  const records = await services.servers.list();
  const referenced = records.flatMap(secretRefsOf);
  const stored = await storedKeys(store, referenced, services);
  const rows = new Map<string, SecretView>();
  for (const ref of referenced)
    rows.set(secretKey(ref), { ...ref, stored: stored.has(secretKey(ref)), referenced: true });
  for (const key of stored) {
    if (rows.has(key)) continue;
    const [refServer = '', kind = 'env', name = ''] = key.split('/');
    rows.set(key, {
      server: refServer,
      kind: kind as SecretRef['kind'],
      name,
      stored: true,
      referenced: false,
    });
  }
  return [...rows.values()]
    .filter((row) => server === undefined || row.server === server)
    .sort((a, b) => secretKey(a).localeCompare(secretKey(b)));
}

/**
 * A local server gets its secrets as environment variables, a remote one as headers: a
 * secret of the other kind would be stored and named, then never sent, and dropped by the
 * server's next edit.
 */
function checkKindFits(record: ServerRecord, ref: SecretRef): void {
  const fits = record.transport === 'stdio' ? 'env' : 'header';
  if (ref.kind === fits) return;
  const what = fits === 'env' ? 'a local server' : 'a remote server';
  throw new CofferError(
    'INVALID_INPUT',
    `"${record.name}" is ${what}: its secrets are ${KIND_WORDS[fits]}, not ${KIND_WORDS[ref.kind]}`,
    {
      hint: `coffer secrets set ${record.name} ${fits === 'env' ? '--env <NAME>' : '--header <Name>'}`,
    },
  );
}

const KIND_WORDS = { env: 'environment variables', header: 'HTTP headers' } as const;

/** A secret set for a server is one it uses: add the name to its definition if missing. */
async function ensureReferenced(services: ApiServices, record: ServerRecord, ref: SecretRef) {
  const field = ref.kind === 'env' ? 'secret_env' : 'secret_headers';
  if (record[field].includes(ref.name)) return;
  await services.servers.update(record.name, { [field]: [...record[field], ref.name] });
  services.notifier.serversChanged();
}

function notStored(ref: SecretRef): CofferError {
  return new CofferError(
    'SECRET_NOT_FOUND',
    `No ${ref.kind} secret "${ref.name}" is stored for "${ref.server}"`,
    { hint: 'see `coffer secrets list`' },
  );
}

/**
 * /secrets: set, list (names only) and remove the secrets servers reference. A value
 * comes in once, goes to the SecretStore, and is never answered, logged nor recorded.
 * Live connections of the server are closed after a change, so the next call starts
 * the upstream with the new value.
 */
export function secretRoutes(services: ApiServices): Hono {
  const app = new Hono();
  const store = (): SecretStore => {
    if (services.secrets === undefined)
      throw new CofferError('NOT_FOUND', 'This daemon keeps no secrets');
    return services.secrets;
  };

  app.get('/secrets', async (c) => {
    const secrets = store();
    const listed = await listSecrets(services, secrets, c.req.query('server'));
    return c.json({ store: await secrets.backend(), secrets: listed });
  });

  app.post('/secrets', async (c) => {
    const { value, ...ref } = parseSecretInput(await readJsonBody(c));
    const record = await requireServer(services.servers, ref.server);
    checkKindFits(record, ref);
    await store().set(ref, value);
    await ensureReferenced(services, record, ref);
    await services.catalog.forget(ref.server);
    recordAdmin(services, c, {
      action: 'secret.set',
      server: ref.server,
      key: `${ref.kind}/${ref.name}`,
    });
    return c.body(null, 204);
  });

  app.delete('/secrets/:server/:kind/:name', async (c) => {
    const ref = parseSecretPath(c.req.param('server'), c.req.param('kind'), c.req.param('name'));
    if (!(await store().delete(ref))) throw notStored(ref);
    if ((await services.servers.get(ref.server)) !== undefined)
      await services.catalog.forget(ref.server);
    recordAdmin(services, c, {
      action: 'secret.remove',
      server: ref.server,
      key: `${ref.kind}/${ref.name}`,
    });
    return c.body(null, 204);
  });

  return app;
}
