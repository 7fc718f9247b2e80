import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CofferError } from '../domain/errors.js';

/**
 * A remote server refused what Coffer presented: a wrong or missing key or token in its
 * headers, or no OAuth sign-in. Said the same whichever way the refusal reached Coffer
 * (the SDK's OAuth, a bare HTTP 401, a 403 about the key), with what to change.
 * `signIn` false: the refusal is known to be no matter of OAuth sign-in.
 */
export function refusedCredentials(
  server: string,
  why: string,
  cause?: unknown,
  signIn = true,
): CofferError {
  return new CofferError(
    'AUTH_REQUIRED',
    `Upstream "${server}" refused Coffer's credentials: ${why}`,
    {
      hint: `if it takes a key or token, set the right one: \`coffer mcp edit ${server} --header "Authorization: Bearer <token>"\`, or for a header kept as a secret \`coffer secrets set ${server} --header <Name>\` (\`coffer mcp show ${server}\` names its headers); if it offers OAuth sign-in, run \`coffer mcp login ${server}\``,
      // `sign_in: false`: no OAuth sign-in would help (a key refused, no OAuth offered), so
      // the server is not marked needs-sign-in (src/gateway/server-states.ts).
      data: signIn ? { server } : { server, sign_in: false },
      ...(cause === undefined ? {} : { cause }),
    },
  );
}

/** What a 403 says when it is about the credentials, not about the request (Host, Origin). */
const ABOUT_CREDENTIALS =
  /\b(api[-_ ]?key|key|token|credentials?|auth\w*|unauthori[sz]ed|not authenticated|invalid_token|insufficient_scope|access denied|permission)\b/i;

/**
 * Why a remote server's HTTP answer is a refusal of Coffer's credentials, or undefined.
 * Every 401 is one, whatever its body: the SDK only reads it as such when it does OAuth,
 * and a server given its key in a header gets no OAuth. A 403 only when its body names
 * a key, token or authorization: servers also answer 403 to a Host or Origin they refuse.
 */
export function httpRefusal(error: unknown): string | undefined {
  if (!(error instanceof StreamableHTTPError || error instanceof SseError)) return undefined;
  const body = answeredBody(error.message);
  if (error.code === 401) return body === '' ? 'it answered 401' : `it answered 401: ${body}`;
  if (error.code === 403 && ABOUT_CREDENTIALS.test(body)) return `it answered 403: ${body}`;
  return undefined;
}

/** The server's own words in the SDK's message, without the SDK's prefixes; '' if none. */
function answeredBody(message: string): string {
  const body = /Error POSTing to endpoint: ([^\n]*)/.exec(message)?.[1] ?? '';
  const trimmed = body.trim();
  return trimmed.length <= 200 ? trimmed : `${trimmed.slice(0, 200)}…`;
}
