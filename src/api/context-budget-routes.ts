import { Hono } from 'hono';
import { CofferError } from '../domain/errors.js';
import type { ApiServices } from './api-services.js';

/** GET /context-budget: what tools/list costs a model, per server and in full vs lean mode. */
export function contextBudgetRoutes(services: ApiServices): Hono {
  const app = new Hono();
  app.get('/context-budget', async (c) => {
    if (services.budget === undefined)
      throw new CofferError('NOT_FOUND', 'This daemon does not measure tool lists');
    return c.json(await services.budget.contextBudget());
  });
  return app;
}
