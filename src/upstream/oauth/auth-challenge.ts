import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

export interface AuthChallenge {
  readonly resourceMetadataUrl?: URL;
  readonly scope?: string;
}

/**
 * What a protected server asks for before any token is shown: an `initialize` without
 * credentials, answered 401 with `WWW-Authenticate: Bearer resource_metadata=…, scope=…`.
 * Anything else (an open initialize, a network error) is no challenge: discovery then
 * falls back to the well-known locations.
 */
export async function probeChallenge(
  url: string,
  headers: Readonly<Record<string, string>>,
  fetchFn: FetchLike = fetch,
): Promise<AuthChallenge> {
  try {
    const response = await fetchFn(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'coffer', version: '0' },
        },
      }),
      signal: AbortSignal.timeout(15_000),
    });
    await response.body?.cancel();
    if (response.status !== 401) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return {
      ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
      ...(scope === undefined ? {} : { scope }),
    };
  } catch {
    return {};
  }
}

/**
 * The scopes of several `scope` strings, each once, in first-seen order; undefined when
 * there are none. A step-up asks for what was granted before and what is challenged now
 * (SEP-2350): a token with only the new scope would be refused where the old one worked.
 */
export function unionOfScopes(...scopes: (string | null | undefined)[]): string | undefined {
  const seen = new Set<string>();
  for (const scope of scopes)
    for (const token of (scope ?? '').split(/\s+/)) if (token) seen.add(token);
  return seen.size === 0 ? undefined : [...seen].join(' ');
}
