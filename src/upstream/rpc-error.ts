import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { CofferError } from '../domain/errors.js';
import { UpstreamRpcError } from '../domain/ports.js';
import { errorText } from './error-text.js';
import { networkProblem } from './network-problem.js';
import { httpRefusal, refusedCredentials } from './refused-credentials.js';

/** Where an SDK error happened: during the handshake, or on a connection already up. */
export interface SdkErrorContext {
  readonly server: string;
  /** The connection was closed (by us or by the upstream) when the error surfaced. */
  readonly closed: boolean;
  /** The handshake had succeeded: a 404 now means the upstream forgot our session. */
  readonly established: boolean;
  /** A process of Coffer's (stdio), whose log is Coffer's; false: a remote server. */
  readonly local?: boolean;
}

/** Where to look next: a local server's own log, or whether a remote one is up. */
function lookHint(server: string, local: boolean): string {
  return local
    ? `read what it logged: \`coffer logs --upstream ${server}\`, and check its definition: \`coffer mcp show ${server}\``
    : `check that it is up and its URL: \`coffer mcp test ${server}\`, \`coffer mcp show ${server}\``;
}

/**
 * The SDK prefixes McpError messages with "MCP error <code>: ". Relaying them as-is
 * would nest the prefix at every hop, so strip it and keep code, message and data.
 */
export function fromSdkError(error: unknown, context: SdkErrorContext): Error {
  const { server } = context;
  const local = context.local !== false;
  if (error instanceof CofferError || error instanceof UpstreamRpcError) return error;
  if (context.established && isStaleSession(error)) return staleSession(server, error);
  if (context.closed || isConnectionClosed(error)) {
    return new CofferError('UPSTREAM_UNAVAILABLE', `Upstream "${server}" closed the connection`, {
      hint: local
        ? `see logs/upstream-${server}.log, or run \`coffer mcp test ${server}\``
        : lookHint(server, false),
      data: { server },
      cause: error,
    });
  }
  if (error instanceof McpError) {
    const prefix = `MCP error ${error.code}: `;
    const message = error.message.startsWith(prefix)
      ? error.message.slice(prefix.length)
      : error.message;
    return new UpstreamRpcError(error.code, message, error.data);
  }
  if (error instanceof OAuthError) return refusedByOAuth(server, error);
  const refusal = httpRefusal(error);
  if (refusal !== undefined) return refusedCredentials(server, refusal, error, false);
  const unreachable = networkProblem(error);
  if (unreachable !== undefined)
    return new CofferError(
      'UPSTREAM_UNAVAILABLE',
      `Upstream "${server}" could not be reached: ${unreachable}`,
      {
        hint: `check that it is running and its URL (\`coffer mcp show ${server}\`)`,
        data: { server },
        cause: error,
      },
    );
  return new CofferError(
    'UPSTREAM_UNAVAILABLE',
    `Upstream "${server}" failed: ${errorText(error)}`,
    {
      hint: transportHint(server, error) ?? lookHint(server, local),
      data: { server },
      cause: error,
    },
  );
}

/** The statuses a server gives a request of the other HTTP transport than its own. */
const OTHER_TRANSPORT = new Set([400, 404, 405, 406]);

/**
 * A server of the other HTTP transport refuses the first request with one of those, in
 * words nobody connects with the transport (`SSE error: Non-200 status code (400)`, an
 * HTML page for a POST): name the switch that fixes it, beside the URL that may be wrong.
 */
function transportHint(server: string, error: unknown): string | undefined {
  if (error instanceof SseError && OTHER_TRANSPORT.has(error.code ?? 0))
    return `check its URL; if it serves Streamable HTTP rather than SSE: \`coffer mcp edit ${server} -t http\``;
  if (error instanceof StreamableHTTPError && OTHER_TRANSPORT.has(error.code ?? 0))
    return `check its URL; if it serves the older HTTP+SSE transport: \`coffer mcp edit ${server} -t sse\``;
  return undefined;
}

/**
 * An HTTP upstream answers 404 to a session id it does not know: it restarted (or
 * expired the session). It refused the message unread, so the request was not processed
 * and may be sent again on a fresh session (ADR-004 update). Streamable HTTP reports it
 * as a StreamableHTTPError with code 404; the legacy SSE transport only in the message.
 */
function isStaleSession(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404;
  return error instanceof Error && error.message.startsWith('Error POSTing to endpoint (HTTP 404)');
}

function staleSession(server: string, error: unknown): CofferError {
  return new CofferError(
    'UPSTREAM_SESSION_EXPIRED',
    `Upstream "${server}" no longer knows Coffer's session (it restarted or expired it)`,
    {
      hint: `Coffer reconnects on its own; if this persists, run \`coffer mcp test ${server}\``,
      data: { server },
      cause: error,
    },
  );
}

/**
 * The SDK's Streamable HTTP client reports a stream cut mid-flight (the upstream died,
 * the socket broke) only through `onerror`, and never fails the request that was waiting
 * on that stream: it would hang until its timeout. Such an error means the connection is
 * broken. (A stream the server ends cleanly is not an error and is resumed by the SDK.)
 */
export function isBrokenStream(error: unknown): boolean {
  // The legacy HTTP+SSE transport ties the server's session to its one GET stream and has
  // no resumption: once the stream is lost, so is the session. The SDK's EventSource then
  // reconnects by itself and silently adopts the NEW stream's endpoint, so later requests
  // would reach a session never initialized (server-everything never answers them). Any
  // stream error after the handshake ends the connection; the next request makes a new one.
  if (error instanceof SseError) return true;
  return error instanceof Error && error.message.startsWith('SSE stream disconnected');
}

function isConnectionClosed(error: unknown): boolean {
  return error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number);
}

/** The SDK's OAuth refused what Coffer presented (a token, or no OAuth it could find). */
function refusedByOAuth(server: string, error: OAuthError): CofferError {
  // The SDK looks for OAuth after a 401; a server with none answers its registration 404,
  // which the SDK reports as a malformed OAuth answer. The 401 is the news, not that.
  const why = /^HTTP 404\b/.test(error.message)
    ? 'it answered 401 and offers no OAuth sign-in Coffer could find'
    : errorText(error);
  return refusedCredentials(server, why, error);
}
