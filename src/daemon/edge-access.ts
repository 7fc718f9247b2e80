import type { IncomingMessage } from 'node:http';
import type { Logger } from '../observability/logger.js';
import { requestTrace } from '../observability/request-trace.js';
import { checkAccess, checkBrowserAccess, type AccessDecision } from './access-guard.js';
import { errorAnswer, raw, type EdgeContext, type EdgeHandler } from './edge-answers.js';
import type { UiRoutes } from './ui-routes.js';

/**
 * The edge's access check of every guarded route: who may in (the token, or the UI's
 * browser session on the UI and the REST API only), then a path that is served as it reads.
 * The rules themselves (Host, Origin, token, session) are access-guard.ts's.
 */

/** What the guard needs of the edge's options. */
export interface EdgeAccessOptions {
  readonly port: number;
  readonly token: string;
  readonly logger: Logger;
  /** The web UI and its browser login; without it only the token opens anything. */
  readonly ui?: UiRoutes;
}

export const SERVER_MCP_PATH = /^\/servers\/([^/]+)\/mcp$/;
const isApiPath = (path: string): boolean => path === '/api/v1' || path.startsWith('/api/v1/');
const isMcpPath = (path: string): boolean => path === '/mcp' || SERVER_MCP_PATH.test(path);

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
  options: EdgeAccessOptions,
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
export function refusal(c: EdgeContext, options: EdgeAccessOptions): Response | undefined {
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
export function guarded(options: EdgeAccessOptions, handler: EdgeHandler): EdgeHandler {
  return (c, next) => refusal(c, options) ?? handler(c, next);
}
