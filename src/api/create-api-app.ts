import { Hono } from 'hono';
import { CofferError } from '../domain/errors.js';
import { silentLogger } from '../observability/logger.js';
import { activityRoutes } from './activity-routes.js';
import { agentRoutes } from './agent-routes.js';
import type { ApiServices } from './api-services.js';
import { capabilityRoutes } from './capability-routes.js';
import { policyRoutes } from './policy-routes.js';
import { reviewRoutes } from './review-routes.js';
import { configRoutes } from './config-routes.js';
import { doctorRoutes } from './doctor-routes.js';
import { contextBudgetRoutes } from './context-budget-routes.js';
import { errorResponse } from './error-response.js';
import { withNearestServer } from './nearest-server.js';
import { eventRoutes } from './event-routes.js';
import { loginRoutes } from './login-routes.js';
import { openApiRoutes } from './openapi.js';
import { refuseDeclaredOversize } from './parse-request.js';
import { requestContext } from './request-context.js';
import { secretRoutes } from './secret-routes.js';
import { serverRoutes } from './server-routes.js';
import { toolCallRoutes } from './tool-call-routes.js';
import { toolSearchRoutes } from './tool-search-routes.js';

export const API_BASE_PATH = '/api/v1';

/**
 * The REST admin API under /api/v1. Bodies are capped at MAX_BODY_BYTES where they are
 * read (parse-request.ts); a declared Content-Length over it is refused on every route,
 * body or not, so the answer is always 413. Authentication, Host and Origin checks belong to the HTTP
 * server that mounts this app; here every route assumes a trusted caller.
 */
export function createApiApp(services: ApiServices): Hono {
  const logger = services.logger ?? silentLogger();
  const app = new Hono().basePath(API_BASE_PATH);
  app.use(requestContext());
  app.use(async (c, next) => {
    refuseDeclaredOversize(c);
    await next();
  });
  app.route('/', serverRoutes(services));
  app.route('/', capabilityRoutes(services));
  app.route('/', policyRoutes(services));
  app.route('/', reviewRoutes(services));
  app.route('/', secretRoutes(services));
  app.route('/', loginRoutes(services));
  app.route('/', activityRoutes(services));
  app.route('/', toolSearchRoutes(services));
  app.route('/', agentRoutes(services));
  app.route('/', toolCallRoutes(services));
  app.route('/', contextBudgetRoutes(services));
  app.route('/', eventRoutes(services));
  app.route('/', doctorRoutes(services));
  app.route('/', configRoutes(services));
  app.route('/', openApiRoutes());
  // A route of its own rather than notFound(): it keeps answering JSON when the daemon
  // mounts this app inside its own, whose notFound would otherwise win.
  app.all('*', (c) =>
    errorResponse(
      c,
      new CofferError('NOT_FOUND', `No such API route: ${c.req.method} ${c.req.path}`),
      logger,
    ),
  );
  app.onError(async (error, c) =>
    errorResponse(c, await withNearestServer(error, services.servers), logger),
  );
  return app;
}
