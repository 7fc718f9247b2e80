/**
 * The two issuer checks of MCP 2026-07-28 authorization (SEP-2468), which the SDK v1
 * `auth()` Coffer runs on does not make (the SDK v2 client makes both, the same way):
 *
 * - authorization server metadata is used only when its `issuer` is the identifier the
 *   well-known URL was built from (RFC 8414 §3.3, OIDC Discovery §4.3), so a document
 *   naming another server cannot redirect the sign-in or the token requests;
 * - an authorization response's `iss` (RFC 9207) must equal, as a plain string, the
 *   issuer recorded from that metadata; it must be present when the metadata says
 *   `authorization_response_iss_parameter_supported`. This defeats mix-up attacks.
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { CofferError } from '../../domain/errors.js';

/**
 * Throws when the discovered metadata names another issuer than the authorization server
 * it was fetched for. Only a trailing "/" the SDK adds to a bare origin is tolerated.
 */
export function checkMetadataIssuer(server: string, state: OAuthDiscoveryState): void {
  const issuer = state.authorizationServerMetadata?.issuer;
  if (issuer === undefined) return;
  const expected = state.authorizationServerUrl;
  if (issuer === expected || (expected.endsWith('/') && issuer === expected.slice(0, -1))) return;
  throw new CofferError(
    'UPSTREAM_UNAVAILABLE',
    `Server "${server}": the metadata of its authorization server ${expected} names another issuer (${issuer}); Coffer does not use it`,
    {
      hint: "the authorization server is misconfigured, or the answer was tampered with: tell the server's operator",
      data: { server, expected_issuer: expected, metadata_issuer: issuer },
    },
  );
}

/**
 * Why an authorization response must be refused for its `iss`, or undefined when it may
 * be used. Without recorded metadata there is nothing to compare against.
 */
export function responseIssuerProblem(
  iss: string | null,
  discovery: OAuthDiscoveryState | undefined,
): string | undefined {
  const metadata = discovery?.authorizationServerMetadata;
  const expected = metadata?.issuer;
  if (expected === undefined) return undefined;
  if (iss === null) {
    // Kept by the SDK's metadata parsing (it keeps unknown fields), but not in its type.
    const advertised: Record<string, unknown> = { ...metadata };
    const required = advertised['authorization_response_iss_parameter_supported'] === true;
    return required ? `the response did not say which server issued it (no "iss")` : undefined;
  }
  if (iss === expected) return undefined;
  return `the response came from issuer "${iss}", not from "${expected}", which Coffer asked`;
}
