import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { traceFields, type Logger } from '../observability/logger.js';
import { requestTrace } from '../observability/request-trace.js';
import { logRequestFailure } from '../observability/request-failure.js';
import type { DaemonApi } from './daemon-api.js';
import type { DaemonServices } from './daemon-services.js';
import { guarded, refusal, SERVER_MCP_PATH, type EdgeAccessOptions } from './edge-access.js';
import {
  errorAnswer,
  jsonAnswer,
  pathnameOf,
  raw,
  type Edge,
  type EdgeContext,
  type EdgeHandler,
} from './edge-answers.js';
import { errorResponseFor } from './error-response.js';
import { OAUTH_CALLBACK_PATH } from './oauth-services.js';
import { LOGIN_CODE_PATH, LOGIN_PATH, type UiRoutes } from './ui-routes.js';

export interface DaemonRouterOptions extends EdgeAccessOptions {
  readonly services: Pick<DaemonServices, 'handleMcp' | 'handleOAuthCallback'>;
  /** The daemon's API app (daemon routes first, then services.api). */
  readonly api: DaemonApi;
}

const isGet = (c: EdgeContext): boolean => c.env.incoming.method === 'GET';

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function mcpRoute(options: DaemonRouterOptions, server: (c: EdgeContext) => string | undefined) {
  return (c: EdgeContext): Response => {
    const name = server(c);
    const { incoming: req, outgoing: res } = c.env;
    options.services.handleMcp(req, res, name).catch((error: unknown) => {
      const trace = requestTrace(req);
      options.logger.error(
        { err: error, server: name, ...traceFields(trace) },
        'MCP request failed',
      );
      if (res.headersSent) res.destroy();
      else {
        const { status, body } = errorResponseFor(error, trace);
        const payload = JSON.stringify(body);
        res.writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(payload),
          'cache-control': 'no-store',
        });
        res.end(payload);
      }
    });
    return RESPONSE_ALREADY_SENT;
  };
}

/** The UI's own routes after the guard: the CLI's login-code request, then built files. */
function uiRoutes(
  app: Edge,
  ui: UiRoutes,
  guard: (handler: EdgeHandler) => EdgeHandler,
  logger: Logger,
): void {
  app.all(
    LOGIN_CODE_PATH,
    guard((c) => {
      if (c.req.method !== 'POST') return serveFile(c, ui, logger);
      // A session must not mint more sessions: codes are for whoever holds the token.
      if (c.get('browser'))
        return errorAnswer(403, 'FORBIDDEN', 'Login codes are issued to the token holder', {
          trace: requestTrace(c.env.incoming),
        });
      return raw(c, (_, res) => ui.issueCode(res));
    }),
  );
}

async function serveFile(c: EdgeContext, ui: UiRoutes, logger: Logger): Promise<Response> {
  const { incoming: req, outgoing: res } = c.env;
  const path = c.req.path;
  try {
    if (await ui.serveFile(req, res, path)) return RESPONSE_ALREADY_SENT;
  } catch (error) {
    const trace = requestTrace(req);
    logger.error({ err: error, ...traceFields(trace) }, 'serving a UI file failed');
    if (!res.headersSent) return errorAnswer(500, 'INTERNAL', 'Internal error', { trace });
    res.destroy();
    return RESPONSE_ALREADY_SENT;
  }
  const missing = `No route for ${req.method ?? 'GET'} ${path}`;
  return errorAnswer(404, 'NOT_FOUND', missing, { trace: requestTrace(req) });
}

/**
 * The daemon's whole HTTP edge as one Hono app (DESIGN.md §2). Routing sees the raw
 * path, never a decoded one, so the guard and the routes judge the same thing.
 *   GET /healthz, the OAuth callback (its `state` stands in for the token), GET /login: open
 *   everything else passes the access guard first, then
 *   /mcp, /servers/<name>/mcp → services.handleMcp on the node req/res (nothing in between)
 *   /api/v1, /api/v1/*        → the API app
 *   anything else             → the UI's files, or 404 JSON
 */
export function createDaemonEdge(options: DaemonRouterOptions): Edge {
  const { logger, services, ui } = options;
  const app: Edge = new Hono({
    getPath: (_request, context) => pathnameOf(context?.env?.incoming.url),
  });

  app.on(['GET', 'HEAD'], '/healthz', () => jsonAnswer(200, { ok: true }));
  // Hono answers HEAD with the GET route: these two are GET only, a HEAD meets the guard.
  const callback = services.handleOAuthCallback;
  if (callback !== undefined)
    app.get(OAUTH_CALLBACK_PATH, (c, next) => (isGet(c) ? raw(c, callback) : next()));
  if (ui !== undefined)
    app.get(LOGIN_PATH, (c, next) =>
      isGet(c) ? raw(c, (req, res) => ui.login(req, res)) : next(),
    );

  const guard = (handler: EdgeHandler): EdgeHandler => guarded(options, handler);
  app.all('/mcp', guard(mcpRoute(options, () => undefined)));
  app.all(
    '/servers/:name/mcp',
    guard((c, next) => {
      const segment = SERVER_MCP_PATH.exec(c.req.path)?.[1];
      if (segment === undefined) return next();
      const name = decodeSegment(segment);
      if (name === undefined)
        return errorAnswer(400, 'INVALID_INPUT', 'Malformed server name in path', {
          trace: requestTrace(c.env.incoming),
        });
      return mcpRoute(options, () => name)(c);
    }),
  );
  if (ui !== undefined) uiRoutes(app, ui, guard, logger);
  const api = guard((c) => options.api.fetch(c.req.raw, c.env));
  app.all('/api/v1', api);
  app.all('/api/v1/*', api);

  // Everything else, after the guard: the UI's files, or 404 JSON.
  app.notFound(
    (c) =>
      refusal(c, options) ??
      (ui !== undefined
        ? serveFile(c, ui, logger)
        : errorAnswer(
            404,
            'NOT_FOUND',
            `No route for ${c.env.incoming.method ?? 'GET'} ${c.req.path}`,
            { trace: requestTrace(c.env.incoming) },
          )),
  );
  app.onError((error, c) => {
    const trace = requestTrace(c.env.incoming);
    logRequestFailure(logger, `${c.req.method} ${c.req.path}`, error, trace);
    if (c.env.outgoing.headersSent) {
      c.env.outgoing.destroy();
      return RESPONSE_ALREADY_SENT;
    }
    const { status, body } = errorResponseFor(error, trace);
    return jsonAnswer(status, body);
  });
  return app;
}
