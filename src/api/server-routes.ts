import { CofferError } from '../domain/errors.js';
import { Hono } from 'hono';
import type { ServerRecord } from '../domain/server-definition.js';
import { recordAdmin } from './admin-audit.js';
import { announce } from './announce.js';
import type { ApiServices } from './api-services.js';
import { parseInput, readJsonBody } from './parse-request.js';
import { createServerSchema, patchServerSchema } from './request-schemas.js';
import { forgetCredentials, forgetDroppedCredentials } from './server-credentials.js';
import { requireServer } from './server-lookup.js';
import { checkPatched, toServerPatch } from './server-patch.js';
import { toServerView, type RemoteOAuthView } from './server-view.js';

/**
 * /servers: the registered servers. Every change tells live sessions (serversChanged);
 * a change that can make a live connection wrong (patch, remove, disable) first closes
 * what is connected to that server, so nothing keeps using the old definition.
 */
export function serverRoutes(services: ApiServices): Hono {
  const { servers, catalog, notifier } = services;
  const app = new Hono();
  // The pin check's verdict of the last list; read, not recomputed (no upstream starts).
  const heldOf = async (name: string): Promise<number> => {
    try {
      return (await services.pins?.held(name))?.length ?? 0;
    } catch (error) {
      // Removed since it was listed: it holds nothing back any more.
      if (error instanceof CofferError && error.code === 'NOT_FOUND') return 0;
      throw error;
    }
  };
  const remoteOAuth = async (record: ServerRecord): Promise<RemoteOAuthView> => {
    const oauth = services.oauth;
    if (record.transport === 'stdio' || oauth === undefined) return {};
    // A locked keychain must not take the server list down with it.
    const [signedIn, clientId] = await Promise.all([
      oauth.signedIn(record.name, record.url ?? '').catch(() => undefined),
      oauth.clientId(record.name).catch(() => undefined),
    ]);
    return { signedIn, clientId };
  };
  const view = async (record: ServerRecord) =>
    toServerView(record, catalog, await heldOf(record.name), await remoteOAuth(record));

  app.get('/servers', async (c) => {
    const records = await servers.list();
    return c.json({ servers: await Promise.all(records.map(view)) });
  });

  app.post('/servers', async (c) => {
    const definition = parseInput(createServerSchema, await readJsonBody(c));
    const record = await servers.create(definition);
    notifier.serversChanged();
    recordAdmin(services, c, { action: 'server.add', server: record.name });
    announce(services, { type: 'server.added', server: record.name });
    return c.json({ server: await view(record) }, 201);
  });

  app.get('/servers/:name', async (c) => {
    const record = await requireServer(servers, c.req.param('name'));
    return c.json({ server: await view(record) });
  });

  app.patch('/servers/:name', async (c) => {
    const name = c.req.param('name');
    const changes = toServerPatch(parseInput(patchServerSchema, await readJsonBody(c)));
    const before = await requireServer(servers, name);
    checkPatched(before, changes);
    const record = await servers.update(name, changes);
    const deleted = await forgetDroppedCredentials(services, before, record);
    await catalog.forget(name);
    notifier.serversChanged();
    recordAdmin(services, c, { action: 'server.update', server: name });
    for (const ref of deleted)
      recordAdmin(services, c, {
        action: 'secret.remove',
        server: name,
        key: `${ref.kind}/${ref.name}`,
      });
    announce(services, { type: 'server.changed', server: name });
    return c.json({ server: await view(record) });
  });

  app.delete('/servers/:name', async (c) => {
    const name = c.req.param('name');
    const record = await requireServer(servers, name);
    await servers.remove(name);
    await forgetCredentials(services, record);
    await catalog.forget(name);
    notifier.serversChanged();
    recordAdmin(services, c, { action: 'server.remove', server: name });
    announce(services, { type: 'server.removed', server: name });
    return c.body(null, 204);
  });

  for (const enabled of [true, false]) {
    app.post(`/servers/:name/${enabled ? 'enable' : 'disable'}`, async (c) => {
      const name = c.req.param('name');
      const record = await servers.update(name, { enabled });
      if (!enabled) await catalog.forget(name);
      notifier.serversChanged();
      recordAdmin(services, c, {
        action: `server.${enabled ? 'enable' : 'disable'}`,
        server: name,
      });
      announce(services, { type: 'server.changed', server: name });
      return c.json({ server: await view(record) });
    });
  }

  return app;
}
