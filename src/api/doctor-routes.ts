import { Hono } from 'hono';
import { CofferError } from '../domain/errors.js';
import type { ApiServices } from './api-services.js';

/**
 * GET /doctor: the daemon's half of `coffer doctor` — versions, port, keychain, and per
 * server whether its command resolves, its state, last start and last error with the
 * fix. The agents half is the CLI's (it reads the agents' files, the daemon does not).
 */
export function doctorRoutes(services: ApiServices): Hono {
  const app = new Hono();
  app.get('/doctor', async (c) => {
    if (services.doctor === undefined)
      throw new CofferError('NOT_FOUND', 'This daemon has no doctor report');
    return c.json(await services.doctor.report());
  });
  return app;
}
