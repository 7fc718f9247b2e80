import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono, type Context, type Next } from 'hono';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '../domain/errors.js';
import { traceFields, type Logger } from '../observability/logger.js';
import { requestTrace } from '../observability/request-trace.js';
import type { TraceContext } from '../observability/trace-context.js';
import { checkAccess, checkBrowserAccess, type AccessDecision } from './access-guard.js';
import type { DaemonApi } from './daemon-api.js';
import type { DaemonServices } from './daemon-services.js';
import { errorBody, errorResponseFor } from './error-response.js';
import { OAUTH_CALLBACK_PATH } from './oauth-services.js';
import { LOGIN_CODE_PATH, LOGIN_PATH, type UiRoutes } from './ui-routes.js';

export interface DaemonRouterOptions {
  readonly port: number;
  readonly token: string;
  readonly logger: Logger;
  readonly services: Pick<DaemonServices, 'handleMcp' | 'handleOAuthCallback'>;
  /** The daemon's API app (daemon routes first, then services.api). */
  readonly api: DaemonApi;
  /** The web UI and its browser login; without it only the token opens anything. */
  readonly ui?: UiRoutes;
}

interface EdgeEnv {
  Bindings: HttpBindings;
  /** The guard let a browser session in (not the token holder). */
  Variables: { browser: boolean };
}
type Edge = Hono<EdgeEnv>;
type EdgeContext = Context<EdgeEnv>;
type EdgeHandler = (c: EdgeContext, next: Next) => Response | Promise<Response> | Promise<void>;
type RawHandler = (req: IncomingMessage, res: ServerResponse) => void;

const SERVER_MCP_PATH = /^\/servers\/([^/]+)\/mcp$/;

export function pathnameOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

const isApiPath = (path: string): boolean => path === '/api/v1' || path.startsWith('/api/v1/');
const isMcpPath = (path: string): boolean => path === '/mcp' || SERVER_MCP_PATH.test(path);

/** A JSON answer with the headers every daemon JSON answer carries. */
export function jsonAnswer(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    },
  });
}

/** What an error answer may add: headers, the hint, and the trace its body names. */
export interface ErrorExtras {
  readonly headers?: Record<string, string>;
  readonly hint?: string;
  readonly trace?: TraceContext;
}

export function errorAnswer(
  status: number,
  code: ErrorCode,
  message: string,
  { headers = {}, hint, trace }: ErrorExtras = {},
): Response {
  return jsonAnswer(status, errorBody(code, message, hint, trace), headers);
}

const isGet = (c: EdgeContext): boolean => c.env.incoming.method === 'GET';

/** Hands the node request and response to a handler that answers on them itself. */
function raw(c: EdgeContext, handler: RawHandler): Response {
  handler(c.env.incoming, c.env.outgoing);
  return RESPONSE_ALREADY_SENT;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Segments of characters the URL parser keeps as they are, none of them "." or "..": such a
 * path is canonical without building a URL (every request of an agent is one of these).
 */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[\w.~!$&'()*+,;=:@-]+)+$/;

/**
 * A path the URL parser would rewrite (dot segments, plain or percent-encoded, and
 * backslashes) is refused: the guard and the routes must judge the path that is served,
 * and `/api/v1/%2e%2e/x` would otherwise reach the API app as `/x`.
 */
function isCanonicalPath(path: string): boolean {
  if (PLAIN_PATH.test(path)) return true;
  try {
    return new URL(path, 'http://127.0.0.1').pathname === path;
  } catch {
    return false;
  }
}

/**
 * A request with the UI's session cookie and no Authorization header is the browser's:
 * it may reach the UI and the REST API, never MCP (agents hold the token). Anything
 * else is judged by the token alone.
 */
function authorize(
  req: IncomingMessage,
  path: string,
  options: DaemonRouterOptions,
): { decision: AccessDecision; browser: boolean } {
  const { ui } = options;
  const browser =
    ui !== undefined &&
    req.headers.authorization === undefined &&
    ui.sessions.sessionFrom(req.headers.cookie) !== undefined &&
    // `/mcp` is also a file-like name: a GET there is MCP's stream, never the browser's.
    !isMcpPath(path) &&
    (isApiPath(path) || ui.isFile(req.method, path));
  return browser
    ? { decision: checkBrowserAccess(req, options, ui.sessions), browser }
    : { decision: checkAccess(req, options), browser };
}

/**
 * The access guard: token (or the UI's session), Host, Origin; then a canonical path.
 * The refusal to answer with, or undefined when the request may go on.
 */
function refusal(c: EdgeContext, options: DaemonRouterOptions): Response | undefined {
  const req = c.env.incoming;
  const path = c.req.path;
  const { decision, browser } = authorize(req, path, options);
  if (!decision.ok) {
    options.logger.warn({ method: req.method, path, status: decision.status }, decision.message);
    const { ui } = options;
    if (ui?.wantsPage(req, path) === true) return raw(c, (_, res) => ui.denied(res, decision));
    const challenge: Record<string, string> =
      decision.status === 401 ? { 'www-authenticate': 'Bearer realm="coffer"' } : {};
    const extras = { headers: challenge, trace: requestTrace(req) };
    return errorAnswer(decision.status, decision.code, decision.message, {
      ...extras,
      ...(decision.hint === undefined ? {} : { hint: decision.hint }),
    });
  }
  if (!isCanonicalPath(path)) {
    return errorAnswer(
      400,
      'INVALID_INPUT',
      'Malformed path: percent-encode it, without "." or ".." segments',
      { trace: requestTrace(req) },
    );
  }
  c.set('browser', browser);
  return undefined;
}

/**
 * A route behind the access guard. The guard wraps each route rather than sitting in
 * front of all of them as a `*` middleware: a path that matches one handler is then
 * dispatched by Hono without its middleware chain (no `compose`, no async step), which
 * was most of the edge's CPU per MCP call.
 */
function guarded(options: DaemonRouterOptions, handler: EdgeHandler): EdgeHandler {
  return (c, next) => refusal(c, options) ?? handler(c, next);
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
    logger.error({ err: error, path: c.req.path, ...traceFields(trace) }, 'request failed');
    if (c.env.outgoing.headersSent) {
      c.env.outgoing.destroy();
      return RESPONSE_ALREADY_SENT;
    }
    const { status, body } = errorResponseFor(error, trace);
    return jsonAnswer(status, body);
  });
  return app;
}
