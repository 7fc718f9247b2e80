import { getRequestListener } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../observability/logger.js';
import {
  newSpanId,
  newTraceContext,
  runWithTrace,
  type TraceContext,
} from '../observability/trace-context.js';
import { checkAccess, checkBrowserAccess, type AccessDecision } from './access-guard.js';
import type { DaemonApi } from './daemon-api.js';
import type { DaemonServices } from './daemon-services.js';
import { errorResponseFor, sendError, sendJson } from './error-response.js';
import { OAUTH_CALLBACK_PATH } from './oauth-services.js';
import { LOGIN_CODE_PATH, LOGIN_PATH, type UiRoutes } from './ui-routes.js';

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

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

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const SERVER_MCP_PATH = /^\/servers\/([^/]+)\/mcp$/;

/** Continues the caller's W3C trace when it sent one (e.g. the shim), else starts one. */
function traceFor(req: IncomingMessage): TraceContext {
  const header = req.headers.traceparent;
  const match = typeof header === 'string' ? TRACEPARENT.exec(header.trim()) : null;
  const traceId = match?.[1];
  return traceId !== undefined && !/^0+$/.test(traceId)
    ? { traceId, spanId: newSpanId() }
    : newTraceContext();
}

function pathnameOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * A path the URL parser would rewrite (dot segments, plain or percent-encoded, and
 * backslashes) is refused: the guard and the router must judge the path that is served,
 * and `/api/v1/%2e%2e/x` would otherwise reach the API app as `/x`.
 */
function isCanonicalPath(path: string): boolean {
  try {
    return new URL(path, 'http://127.0.0.1').pathname === path;
  } catch {
    return false;
  }
}

const isApiPath = (path: string): boolean => path === '/api/v1' || path.startsWith('/api/v1/');
const isMcpPath = (path: string): boolean => path === '/mcp' || SERVER_MCP_PATH.test(path);

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

/** The UI's own routes after the guard: the CLI's login-code request, then built files. */
function serveUi(
  ui: UiRoutes,
  req: IncomingMessage,
  res: ServerResponse,
  context: { path: string; browser: boolean; logger: Logger },
): void {
  const { path, browser, logger } = context;
  if (path === LOGIN_CODE_PATH && req.method === 'POST') {
    // A session must not mint more sessions: codes are for whoever holds the token.
    if (browser) sendError(res, 403, 'FORBIDDEN', 'Login codes are issued to the token holder');
    else ui.issueCode(res);
    return;
  }
  ui.serveFile(req, res, path)
    .then((served) => {
      if (!served) sendError(res, 404, 'NOT_FOUND', `No route for ${req.method ?? 'GET'} ${path}`);
    })
    .catch((error: unknown) => {
      logger.error({ err: error }, 'serving a UI file failed');
      if (!res.headersSent) sendError(res, 500, 'INTERNAL', 'Internal error');
      else res.destroy();
    });
}

/**
 * Routes of the daemon (DESIGN.md §2): GET /healthz is open; everything else passes the
 * access guard first, then
 *   /mcp, /servers/<name>/mcp → services.handleMcp (node req/res)
 *   /api/v1, /api/v1/*        → the API app (hono, via @hono/node-server)
 *   anything else             → 404 JSON
 */
export function createDaemonRouter(options: DaemonRouterOptions): RequestHandler {
  const { logger, services } = options;
  const apiListener = getRequestListener((request, env) => options.api.fetch(request, env), {
    overrideGlobalObjects: false,
    errorHandler: (error) => {
      logger.error({ err: error }, 'API request failed');
      const { status, body } = errorResponseFor(error);
      return Response.json(body, { status });
    },
  });

  const serveMcp = (
    req: IncomingMessage,
    res: ServerResponse,
    server: string | undefined,
  ): void => {
    services.handleMcp(req, res, server).catch((error: unknown) => {
      logger.error({ err: error, server }, 'MCP request failed');
      if (!res.headersSent) {
        const { status, body } = errorResponseFor(error);
        sendJson(res, status, body);
      } else {
        res.destroy();
      }
    });
  };

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const method = req.method ?? 'GET';
    const path = pathnameOf(req.url);

    if (path === '/healthz' && (method === 'GET' || method === 'HEAD')) {
      sendJson(res, 200, { ok: true });
      return;
    }

    // The browser back from an OAuth sign-in: its one-time `state` stands in for the token.
    if (path === OAUTH_CALLBACK_PATH && method === 'GET' && services.handleOAuthCallback) {
      services.handleOAuthCallback(req, res);
      return;
    }

    if (options.ui !== undefined && path === LOGIN_PATH && method === 'GET') {
      options.ui.login(req, res);
      return;
    }

    const { decision: access, browser } = authorize(req, path, options);
    if (!access.ok) {
      logger.warn({ method, path, status: access.status }, access.message);
      if (options.ui?.wantsPage(req, path) === true) options.ui.denied(res, access);
      else
        sendError(
          res,
          access.status,
          access.code,
          access.message,
          access.status === 401 ? { 'www-authenticate': 'Bearer realm="coffer"' } : {},
          access.hint,
        );
      return;
    }

    if (!isCanonicalPath(path)) {
      sendError(
        res,
        400,
        'INVALID_INPUT',
        'Malformed path: percent-encode it, without "." or ".." segments',
      );
      return;
    }
    if (path === '/mcp') {
      serveMcp(req, res, undefined);
      return;
    }
    const serverMatch = SERVER_MCP_PATH.exec(path);
    if (serverMatch?.[1] !== undefined) {
      const name = decodeSegment(serverMatch[1]);
      if (name === undefined) sendError(res, 400, 'INVALID_INPUT', 'Malformed server name in path');
      else serveMcp(req, res, name);
      return;
    }
    if (options.ui !== undefined && (path === LOGIN_CODE_PATH || !isApiPath(path))) {
      serveUi(options.ui, req, res, { path, browser, logger });
      return;
    }
    if (isApiPath(path)) {
      apiListener(req, res).catch((error: unknown) => {
        logger.error({ err: error }, 'API request failed');
        if (!res.headersSent) sendError(res, 500, 'INTERNAL', 'Internal error');
        else res.destroy();
      });
      return;
    }
    sendError(res, 404, 'NOT_FOUND', `No route for ${method} ${path}`);
  };

  return (req, res) => {
    const started = process.hrtime.bigint();
    runWithTrace(traceFor(req), () => {
      res.once('finish', () => {
        logger.debug(
          {
            method: req.method,
            path: pathnameOf(req.url),
            status: res.statusCode,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          },
          'http request',
        );
      });
      try {
        route(req, res);
      } catch (error) {
        logger.error({ err: error }, 'request routing failed');
        if (!res.headersSent) sendError(res, 500, 'INTERNAL', 'Internal error');
        else res.destroy();
      }
    });
  };
}

/**
 * The daemon's node:http server. It is bound before the services exist; until `serve`
 * installs the router every request is answered 503 (and /healthz is not yet ok).
 */
export function createDaemonServer(): { server: Server; serve(handler: RequestHandler): void } {
  let handler: RequestHandler = (_req, res) => {
    sendError(res, 503, 'DAEMON_UNAVAILABLE', 'The Coffer daemon is starting');
  };
  const server = createServer((req, res) => handler(req, res));
  return {
    server,
    serve(next) {
      handler = next;
    },
  };
}
