import { Hono } from 'hono';
import type { ServerCapabilities } from '../domain/ports.js';
import { recordAdmin, toggleKey } from './admin-audit.js';
import { announce } from './announce.js';
import type { ApiServices } from './api-services.js';
import { parseInput, readJsonBody } from './parse-request.js';
import { toggleCapabilitiesSchema } from './request-schemas.js';
import { requireServer } from './server-lookup.js';

/** The error code of the first list that could not be had, if one could not. */
function failureOf(listed: ServerCapabilities): string | undefined {
  const { tools, prompts, resources, resource_templates } = listed;
  for (const listing of [tools, prompts, resources, resource_templates])
    if (listing.status === 'could-not-load') return listing.error.code;
  return undefined;
}

/**
 * /servers/:name/{capabilities,refresh,test}: the admin view of what a server offers.
 * Lists are live (ADR-004); only the enabled flags are stored, through preferences.
 */
export function capabilityRoutes(services: ApiServices): Hono {
  const { servers, preferences, catalog, notifier } = services;
  const app = new Hono();

  app.get('/servers/:name/capabilities', async (c) => {
    const name = c.req.param('name');
    await requireServer(servers, name);
    return c.json(await catalog.capabilities(name));
  });

  // `coffer mcp refresh`: drop every cached list and connection of the server (sessions
  // included), then list again so the caller sees what is there now.
  app.post('/servers/:name/refresh', async (c) => {
    const name = c.req.param('name');
    await requireServer(servers, name);
    await catalog.refresh(name);
    const listed = await catalog.capabilities(name);
    // Recorded as failed when a list it asked for could not be had: the row must not
    // read "ok" beside a server that cannot start.
    const failure = failureOf(listed);
    recordAdmin(services, c, {
      action: 'server.refresh',
      server: name,
      ...(failure === undefined ? {} : { failedWith: failure }),
    });
    return c.json(listed);
  });

  app.post('/servers/:name/test', async (c) => {
    const name = c.req.param('name');
    await requireServer(servers, name);
    return c.json(await catalog.testConnection(name));
  });

  app.post('/servers/:name/capabilities', async (c) => {
    const name = c.req.param('name');
    const toggle = parseInput(toggleCapabilitiesSchema, await readJsonBody(c));
    await requireServer(servers, name);
    const changed = await preferences.setEnabled(name, toggle.type, toggle.keys, toggle.enabled);
    notifier.capabilitiesChanged(name);
    recordAdmin(services, c, {
      action: `capability.${toggle.enabled ? 'enable' : 'disable'}`,
      server: name,
      key: toggleKey(toggle.type, toggle.keys),
    });
    announce(services, {
      type: 'capability.toggled',
      server: name,
      capability_type: toggle.type,
      keys: toggle.keys,
      enabled: toggle.enabled,
    });
    return c.json({ changed });
  });

  return app;
}
