import type { HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import { traceFields, type Logger } from '../observability/logger.js';
import { requestTrace } from '../observability/request-trace.js';
import { errorResponseFor } from './error-response.js';

/**
 * The daemon's own REST routes, mounted in front of the services' API:
 *   GET  /api/v1/status       → daemon facts + services.status()
 *   POST /api/v1/daemon/stop  → 202, then a graceful shutdown once the answer is sent
 * Every other /api/v1/* request is forwarded to `forward` (services.api.fetch).
 */
export interface DaemonApiOptions {
  status(): Record<string, unknown>;
  requestStop(reason: string): void;
  forward(request: Request): Response | Promise<Response>;
  logger: Logger;
}

export type DaemonApi = Hono<{ Bindings: Partial<HttpBindings> }>;

export function createDaemonApi(options: DaemonApiOptions): DaemonApi {
  const app: DaemonApi = new Hono();

  app.get('/api/v1/status', (c) => c.json(options.status()));

  app.post('/api/v1/daemon/stop', (c) => {
    const outgoing = c.env?.outgoing;
    const stop = (): void => options.requestStop('stop endpoint');
    // Shut down only once the 202 has left, so the caller sees it.
    if (outgoing !== undefined) outgoing.once('close', stop);
    else setTimeout(stop, 10);
    options.logger.info('daemon stop requested through the API');
    return c.json({ ok: true, stopping: true, pid: process.pid }, 202);
  });

  app.all('*', (c) => options.forward(c.req.raw));

  app.onError((error, c) => {
    const incoming = c.env?.incoming;
    const trace = incoming === undefined ? undefined : requestTrace(incoming);
    options.logger.error(
      { err: error, path: c.req.path, ...traceFields(trace) },
      'API request failed',
    );
    const { status, body } = errorResponseFor(error, trace);
    return c.json(body, status as 500);
  });

  return app;
}
