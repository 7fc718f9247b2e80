import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * The access guard of every endpoint but GET /healthz (DESIGN.md §3, Security):
 * - Host must name a loopback host (127.0.0.1, localhost, [::1]; any port)
 *   and Origin, when sent, must be a loopback http origin: anything else is a DNS
 *   rebinding attempt from a web page → 403 FORBIDDEN;
 * - `Authorization: Bearer <token>` must carry the daemon's token, compared in constant
 *   time → else 401 UNAUTHORIZED. A token in the query string is never accepted.
 */
export interface AccessPolicy {
  readonly port: number;
  readonly token: string;
}

export type AccessDecision =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly status: 401 | 403;
      readonly code: 'UNAUTHORIZED' | 'FORBIDDEN';
      readonly message: string;
      /** What to do about it (a 401 says where the token is). */
      readonly hint?: string;
    };

export interface GuardedRequest {
  readonly headers: IncomingHttpHeaders;
  readonly url?: string | undefined;
}

const LOOPBACK_HOSTNAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);
const QUERY_TOKEN_PARAMS = ['token', 'access_token'];

export function isAllowedHost(host: string | undefined, _port: number): boolean {
  if (host === undefined) return false;
  const value = host.trim().toLowerCase();
  // DNS rebinding shows as a foreign host NAME; the port is not part of that attack, and a
  // loopback proxy in front of the daemon (tests, debugging) keeps its own port.
  const match = /^(\[::1\]|[^:]+)(?::(\d{1,5}))?$/.exec(value);
  return match?.[1] !== undefined && LOOPBACK_HOSTNAMES.has(match[1]);
}

/** `http://` + a loopback host (any port); `null`, https and other hosts are refused. */
export function isAllowedOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (
    url.protocol === 'http:' &&
    LOOPBACK_HOSTNAMES.has(url.hostname) &&
    url.origin === origin.trim().toLowerCase().replace(/\/$/, '')
  );
}

/** The token of an `Authorization: Bearer <token>` header, else undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  return match?.[1];
}

/**
 * Constant-time comparison that reveals neither the token's content nor its length:
 * timingSafeEqual always runs over the expected token's bytes, against the given ones
 * when their lengths match, else against the expected ones themselves (and the answer
 * is no). Only the given token's own length shows in the time, which its sender knows.
 * (Hashing both sides instead, once per request, cost more than the rest of the guard.)
 */
export function tokensEqual(given: string, expected: string): boolean {
  const want = Buffer.from(expected);
  const got = Buffer.from(given);
  const sameLength = got.length === want.length;
  const equal = timingSafeEqual(sameLength ? got : want, want);
  return sameLength && equal && got.length > 0;
}

function hasQueryToken(url: string | undefined): boolean {
  if (url === undefined) return false;
  const query = url.indexOf('?');
  if (query === -1) return false;
  const params = new URLSearchParams(url.slice(query + 1));
  return QUERY_TOKEN_PARAMS.some((name) => params.has(name));
}

/** What a refused local client can do; a web page of another site can do nothing. */
const FORBIDDEN_HINT =
  'Coffer answers only local clients that address it as http://127.0.0.1:<port> or http://localhost:<port>; a web page of another site may not call it';
const BROWSER_HINT =
  'the web UI sends these itself (open it with `coffer ui`); a script should send the bearer token instead of the cookie';

function forbidden(message: string, hint = FORBIDDEN_HINT): AccessDecision {
  return { ok: false, status: 403, code: 'FORBIDDEN', message, hint };
}

/**
 * Most 401s are an agent set up by hand, or an MCP client that expected OAuth: say where
 * the token is and what needs none.
 */
const TOKEN_HINT =
  'send the token from daemon.json in COFFER_HOME (default ~/.coffer) as `Authorization: Bearer <token>`, ' +
  'or let the agent run `coffer shim` instead (`coffer agents install <agent>` sets that up)';

function unauthorized(message: string): AccessDecision {
  return { ok: false, status: 401, code: 'UNAUTHORIZED', message, hint: TOKEN_HINT };
}

export function checkAccess(request: GuardedRequest, policy: AccessPolicy): AccessDecision {
  const { headers } = request;
  if (!isAllowedHost(headers.host, policy.port)) {
    return forbidden('Host header does not name this loopback daemon');
  }
  const origin = headers.origin;
  if (origin !== undefined && !isAllowedOrigin(origin)) {
    return forbidden('Origin is not a loopback http origin');
  }
  if (hasQueryToken(request.url)) {
    return unauthorized(
      'Tokens in the query string are not accepted; use the Authorization header',
    );
  }
  const token = bearerToken(headers.authorization);
  if (token === undefined) return unauthorized('Missing Authorization: Bearer <token> header');
  if (!tokensEqual(token, policy.token)) return unauthorized('Invalid token');
  return { ok: true };
}

// ── Browser sessions (the web UI) ────────────────────────────────────────────

/** What the guard needs of the daemon's BrowserSessions. */
export interface SessionCheck {
  sessionFrom(cookieHeader: string | undefined): string | undefined;
  isSession(id: string): boolean;
}

/** A header a cross-site HTML form cannot send, and a cross-origin fetch cannot without CORS. */
export const CSRF_HEADER = 'x-coffer-csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** `none` is a navigation the user typed or opened from another program (`coffer ui`). */
const SAME_ORIGIN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * Exactly this daemon's origin. Stricter than isAllowedOrigin: every port of 127.0.0.1
 * is the same *site*, so a page served by any other local program gets our SameSite
 * cookie; only the origin tells it apart.
 */
export function isOwnOrigin(origin: string, port: number): boolean {
  return isAllowedOrigin(origin) && new URL(origin).port === String(port);
}

export interface BrowserRequest extends GuardedRequest {
  readonly method?: string | undefined;
}

/**
 * A request carrying the UI's session cookie (and no Authorization header). Host was
 * checked as for any request; then: a live session; no foreign Origin or Sec-Fetch-Site;
 * and a state change must name its own Origin and carry `X-Coffer-CSRF: 1`, so neither
 * a cross-site form nor a page on another local port can act with the user's cookie.
 */
export function checkBrowserAccess(
  request: BrowserRequest,
  policy: AccessPolicy,
  sessions: SessionCheck,
): AccessDecision {
  const { headers } = request;
  if (!isAllowedHost(headers.host, policy.port)) {
    return forbidden('Host header does not name this loopback daemon');
  }
  const session = sessions.sessionFrom(headers.cookie);
  if (session === undefined || !sessions.isSession(session)) {
    return unauthorized('The browser session expired; open the UI again with `coffer ui`');
  }
  const { origin } = headers;
  if (origin !== undefined && !isOwnOrigin(origin, policy.port)) {
    return forbidden('Cross-origin requests are refused');
  }
  const site = headers['sec-fetch-site'];
  if (site !== undefined && !SAME_ORIGIN_FETCH_SITES.has(site)) {
    return forbidden('Cross-site requests are refused');
  }
  if (!SAFE_METHODS.has((request.method ?? 'GET').toUpperCase())) {
    if (origin === undefined)
      return forbidden('A state-changing request must send its Origin', BROWSER_HINT);
    if (headers[CSRF_HEADER] !== '1')
      return forbidden(`Missing ${CSRF_HEADER}: 1 header`, BROWSER_HINT);
  }
  return { ok: true };
}
