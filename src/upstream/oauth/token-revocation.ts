import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { StoredTokens } from './oauth-vault.js';

export interface RevocationInput {
  readonly discovery: OAuthDiscoveryState | undefined;
  readonly client: OAuthClientInformationMixed | undefined;
  readonly tokens: StoredTokens | undefined;
  readonly fetchFn?: FetchLike;
}

/**
 * RFC 7009: asks the authorization server to revoke the refresh token (which ends the
 * grant) and the access token. True when the server has a revocation endpoint and
 * accepted every request; false when it has none or refused (the tokens are forgotten
 * locally either way).
 */
export async function revokeTokens(input: RevocationInput): Promise<boolean> {
  const metadata = input.discovery?.authorizationServerMetadata;
  const endpoint =
    metadata !== undefined && 'revocation_endpoint' in metadata
      ? metadata.revocation_endpoint
      : undefined;
  const { tokens, client } = input;
  if (endpoint === undefined || tokens === undefined || client === undefined) return false;
  const requests: [string, string][] = [];
  if (tokens.refresh_token !== undefined) requests.push([tokens.refresh_token, 'refresh_token']);
  requests.push([tokens.access_token, 'access_token']);
  let allAccepted = true;
  for (const [token, hint] of requests) {
    const accepted = await revokeOne(endpoint, token, hint, client, input.fetchFn ?? fetch);
    allAccepted &&= accepted;
  }
  return allAccepted;
}

async function revokeOne(
  endpoint: string,
  token: string,
  hint: string,
  client: OAuthClientInformationMixed,
  fetchFn: FetchLike,
): Promise<boolean> {
  const body = new URLSearchParams({ token, token_type_hint: hint });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (client.client_secret === undefined) body.set('client_id', client.client_id);
  else {
    const basic = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`;
    headers['authorization'] = `Basic ${Buffer.from(basic).toString('base64')}`;
  }
  try {
    const response = await fetchFn(endpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(15_000),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
