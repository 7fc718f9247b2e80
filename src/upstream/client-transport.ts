import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerDefinition } from '../domain/server-definition.js';
import { sharedRotatingFile } from '../observability/rotating-file.js';
import { modernHttpFetch } from './modern-http-fetch.js';
import { nodeHttpFetch } from './node-http-fetch.js';
import { CofferOAuthProvider } from './oauth/coffer-oauth-provider.js';
import { originHeaders } from './origin-headers.js';
import { redactingStderr } from './stderr-redaction.js';
import { StdioProcessTransport } from './stdio-process-transport.js';

export interface TransportOptions {
  /** Where the upstream's stderr goes; drained so a chatty child never blocks. */
  readonly stderrLogPath?: string;
  /** Extra env / headers resolved at connect time (secrets); never stored. */
  readonly extraEnv?: Readonly<Record<string, string>>;
  readonly extraHeaders?: Readonly<Record<string, string>>;
  /** The PATH a stdio upstream's command is found on (src/upstream/login-shell-path.ts). */
  readonly searchPath?: string;
  /** A stdio upstream's process started / ended (for the orphan sweep's records). */
  readonly onSpawn?: (pid: number) => void;
  readonly onExit?: (pid: number) => void;
  /** A remote server's OAuth (src/upstream/oauth): bearer tokens, refresh, sign-in state. */
  readonly authProvider?: OAuthClientProvider;
}

/** Builds the SDK client transport for one server definition. */
export function createClientTransport(
  definition: ServerDefinition,
  options: TransportOptions = {},
): Transport {
  if (definition.transport === 'stdio') return stdioTransport(definition, options);
  const url = new URL(definition.url ?? '');
  const headers = { ...definition.headers, ...options.extraHeaders };
  const { authProvider } = options;
  const auth = authProvider === undefined ? {} : { authProvider };
  // The SDK's OAuth fetches with the transport's fetch: its authorization server's failures said as such.
  const watched = (base: FetchLike): FetchLike =>
    authProvider instanceof CofferOAuthProvider ? authProvider.watchedFetch(base) : base;
  // The server's headers go to its own origin only (origin-headers.ts), never in
  // `requestInit`, which the SDK also sends to an authorization server elsewhere.
  if (definition.transport === 'sse') {
    return new SSEClientTransport(url, {
      fetch: watched(originHeaders(nodeHttpFetch(), url, headers)),
      eventSourceInit: { fetch: originHeaders(fetch, url, headers) },
      ...auth,
    });
  }
  // Coffer's fetch adds what the 2026-07-28 HTTP transport needs (src/upstream/modern-http-fetch.ts),
  // its POSTs on node:http (src/upstream/node-http-fetch.ts).
  return new StreamableHTTPClientTransport(url, {
    fetch: watched(originHeaders(modernHttpFetch(), url, headers)),
    ...auth,
  });
}

function stdioTransport(definition: ServerDefinition, options: TransportOptions): Transport {
  // Size-bounded, and shared with the other processes of this server (one per session).
  const file =
    options.stderrLogPath === undefined ? undefined : sharedRotatingFile(options.stderrLogPath);
  // Without the secrets it was given: a server may print its own token (stderr-redaction.ts).
  const log =
    file === undefined
      ? undefined
      : redactingStderr(definition.name, options.extraEnv ?? {}, (chunk) => file.write(chunk));
  return new StdioProcessTransport({
    command: definition.command ?? '',
    args: definition.args,
    env: { ...definition.env, ...options.extraEnv },
    ...(definition.cwd === undefined ? {} : { cwd: definition.cwd }),
    ...(options.searchPath === undefined ? {} : { searchPath: options.searchPath }),
    ...(log === undefined
      ? {}
      : { onStderr: (chunk: Buffer) => log.write(chunk), onStderrEnd: () => log.end() }),
    ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
    ...(options.onExit === undefined ? {} : { onExit: options.onExit }),
  });
}
