import { createHash, timingSafeEqual } from 'node:crypto';
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

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Constant-time comparison: both sides are hashed first, so timingSafeEqual always
 * compares equal-length buffers and the time taken reveals neither content nor length.
 */
export function tokensEqual(given: string, expected: string): boolean {
  const equal = timingSafeEqual(digest(given), digest(expected));
  return equal && given.length > 0;
}

function hasQueryToken(url: string | undefined): boolean {
  if (url === undefined) return false;
  const query = url.indexOf('?');
  if (query === -1) return false;
  const params = new URLSearchParams(url.slice(query + 1));
  return QUERY_TOKEN_PARAMS.some((name) => params.has(name));
}

function forbidden(message: string): AccessDecision {
  return { ok: false, status: 403, code: 'FORBIDDEN', message };
}

function unauthorized(message: string): AccessDecision {
  return { ok: false, status: 401, code: 'UNAUTHORIZED', message };
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
