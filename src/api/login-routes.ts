import { Hono } from 'hono';
import { CofferError } from '../domain/errors.js';
import type { OAuthSignIn } from '../domain/ports.js';
import { recordAdmin } from './admin-audit.js';
import { announce } from './announce.js';
import type { ApiServices } from './api-services.js';
import { oauthClientSchema } from './login-schemas.js';
import { parseInput, readJsonBody } from './parse-request.js';
import { requireServer } from './server-lookup.js';

/**
 * OAuth sign-in of remote servers (docs/OAUTH.md). `POST …/login` answers the URL the
 * user's browser must open; the browser comes back to the daemon's /oauth/callback;
 * `GET …/login` tells how it went (the CLI polls it). Tokens and client secrets go in,
 * never out.
 */
export function loginRoutes(services: ApiServices): Hono {
  const app = new Hono();
  const flow = (): OAuthSignIn => {
    if (services.oauth === undefined)
      throw new CofferError('NOT_FOUND', 'This daemon has no OAuth sign-in');
    return services.oauth;
  };

  app.post('/servers/:name/login', async (c) => {
    const name = c.req.param('name');
    await requireServer(services.servers, name);
    const started = await flow().start(name);
    recordAdmin(services, c, { action: 'server.login-started', server: name });
    return c.json(started);
  });

  app.get('/servers/:name/login', async (c) => {
    const name = c.req.param('name');
    await requireServer(services.servers, name);
    return c.json(flow().status(name));
  });

  app.post('/servers/:name/logout', async (c) => {
    const name = c.req.param('name');
    await requireServer(services.servers, name);
    const result = await flow().logout(name);
    await services.catalog.forget(name);
    announce(services, { type: 'server.changed', server: name });
    return c.json(result);
  });

  app.post('/servers/:name/oauth-client', async (c) => {
    const name = c.req.param('name');
    await requireServer(services.servers, name);
    const { client_id, client_secret } = parseInput(oauthClientSchema, await readJsonBody(c));
    await flow().setClient(name, {
      client_id,
      ...(client_secret === undefined ? {} : { client_secret }),
    });
    await services.catalog.forget(name);
    recordAdmin(services, c, { action: 'server.oauth-client', server: name });
    return c.body(null, 204);
  });

  return app;
}
