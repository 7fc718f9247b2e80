import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * A remote server's own headers (its definition's and its secret ones), added only to
 * requests to that server's origin. The SDK transports would send `requestInit.headers`
 * with every request they make, the OAuth discovery, registration and token requests to
 * an authorization server elsewhere included: a server's API key would reach a third
 * party that only has to be named in its metadata. A header set here wins over the one
 * the transport set, as `requestInit.headers` did (a user's Authorization over none).
 */
export function originHeaders(
  base: FetchLike,
  server: URL,
  headers: Readonly<Record<string, string>>,
): FetchLike {
  const names = Object.entries(headers);
  if (names.length === 0) return base;
  return (url, init) => {
    const target = typeof url === 'string' ? new URL(url) : url;
    if (target.origin !== server.origin) return base(url, init);
    const merged = new Headers(init?.headers);
    for (const [name, value] of names) merged.set(name, value);
    return base(url, { ...init, headers: merged });
  };
}
