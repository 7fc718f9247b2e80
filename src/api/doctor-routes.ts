import { Hono } from 'hono';
import { CofferError } from '../domain/errors.js';
import type { ApiServices } from './api-services.js';

/**
 * GET /doctor: the report of `coffer doctor` — versions, port, keychain, per server
 * whether its command resolves, its state, last start and last error with the fix, and
 * the agents' files. `?agents=no` leaves the agents out: the CLI checks them itself, and
 * a check of servers only keeps the agents' parsers unloaded in the daemon.
 */
export function doctorRoutes(services: ApiServices): Hono {
  const app = new Hono();
  app.get('/doctor', async (c) => {
    if (services.doctor === undefined)
      throw new CofferError('NOT_FOUND', 'This daemon has no doctor report');
    const agents = c.req.query('agents');
    if (agents !== undefined && agents !== 'no' && agents !== 'yes')
      throw new CofferError('INVALID_INPUT', `agents must be yes or no, not "${agents}"`, {
        hint: 'leave it out to include the agents',
      });
    return c.json(await services.doctor.report({ agents: agents !== 'no' }));
  });
  return app;
}
