import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { ServerDefinition } from '../domain/server-definition.js';
import type {
  UpstreamConnectContext,
  UpstreamConnection,
  UpstreamConnector,
  UpstreamPeer,
} from '../domain/ports.js';
import { errorRedactor } from './error-redaction.js';
import { createClientTransport, type TransportOptions } from './client-transport.js';
import { EraMemory, definitionKey } from './era-memory.js';
import { EraProbeClosed, type NegotiationOrder } from './era-negotiation.js';
import { JsonRpcUpstreamConnection } from './jsonrpc-upstream-connection.js';
import { SharedUpstreams } from './shared-upstreams.js';

export interface UpstreamConnectorOptions {
  /** Coffer's name and version, sent to upstreams as clientInfo. */
  readonly clientInfo: { name: string; version: string };
  /** Idle timeout of one request (reset by progress). */
  readonly requestTimeoutMs?: number;
  /** Start plus MCP handshake; separate, so a short call timeout does not fail a slow start. */
  readonly connectTimeoutMs?: number;
  readonly maxTotalTimeoutMs?: number;
  /** `logs/upstream-<name>.log` for a server. */
  readonly stderrLogPath?: (server: string) => string;
  /** Resolves secrets when a connection is made (never earlier, never stored). */
  readonly resolveSecrets?: (
    definition: ServerDefinition,
  ) => Promise<Pick<TransportOptions, 'extraEnv' | 'extraHeaders'>>;
  /** Records each stdio upstream process for the orphan sweep. */
  readonly processes?: ProcessTracker;
  /**
   * The PATH a stdio command is spawned with: undefined keeps the inherited one; for a
   * command it does not find, the login shell's merged in (src/upstream/login-shell-path.ts).
   */
  readonly searchPath?: (command: string) => Promise<string | undefined>;
  /** The OAuth provider of a remote server (undefined: none, e.g. a static Authorization header). */
  readonly authProvider?: (definition: ServerDefinition) => OAuthClientProvider | undefined;
}

export interface ProcessTracker {
  spawned(entry: {
    pid: number;
    server: string;
    commandLine: string;
    sessionId: string | null;
  }): void;
  exited(pid: number): void;
}

/**
 * Spawns or dials upstreams: the SDK's HTTP client transports (with their OAuth) or
 * Coffer's stdio process transport, under Coffer's own JSON-RPC session. Each upstream's
 * era is negotiated on first use and remembered: a 2025 (legacy) upstream gets a
 * connection per session as before, unless its user marked it `shared`; a 2026-07-28
 * (modern) one, and a shared one of either era, serves every session through leases
 * (src/upstream/shared-upstreams.ts).
 */
export class SdkUpstreamConnector implements UpstreamConnector {
  private readonly eras = new EraMemory();
  private readonly shared: SharedUpstreams;

  constructor(private readonly options: UpstreamConnectorOptions) {
    this.shared = new SharedUpstreams(options.clientInfo);
  }

  async connect(
    definition: ServerDefinition,
    context: UpstreamConnectContext,
  ): Promise<UpstreamConnection> {
    const key = definitionKey(definition);
    const era = this.eras.get(definition);
    if (era === 'modern' || definition.shared) {
      try {
        return await this.shared.leaseOrOpen(key, context, (peer) =>
          definition.shared
            ? this.openShared(definition, context, peer)
            : this.openModern(definition, context, peer),
        );
      } catch (error) {
        if (!(error instanceof NoLongerModern)) throw error;
        this.eras.remember(definition, 'legacy');
      }
    }
    // A server of unknown era is probed with server/discover first, on stdio and on
    // Streamable HTTP alike (2026-07-28 requires the envelope and its headers on every
    // POST, the first one included); a 2025 server's refusal falls back to initialize
    // (src/upstream/era-negotiation.ts). The deprecated HTTP+SSE transport is 2025 only.
    const order: NegotiationOrder =
      era === undefined && definition.transport !== 'sse' ? 'modern-first' : 'legacy-first';
    let target: UpstreamPeer = context.peer;
    const peer: UpstreamPeer = {
      request: (method, params, signal) => target.request(method, params, signal),
      notify: (method, params) => target.notify(method, params),
    };
    const connection = await this.openOrRetry(definition, context, peer, order);
    this.eras.remember(definition, connection.era);
    if (connection.era === 'legacy') return connection;
    target = this.shared.peerFor(key);
    return this.shared.adopt(key, connection, context);
  }

  /** A connection to a server remembered as modern, for sharing; a legacy one is refused. */
  private async openModern(
    definition: ServerDefinition,
    context: UpstreamConnectContext,
    peer: UpstreamPeer,
  ): Promise<JsonRpcUpstreamConnection> {
    const connection = await this.openOrRetry(definition, context, peer, 'modern-first');
    if (connection.era === 'modern') return connection;
    await connection.close();
    throw new NoLongerModern();
  }

  /**
   * A server the user marked `shared`: one connection for every session, whatever its
   * era. It is told of no client capabilities, so a 2025 server never asks one agent a
   * question (sampling, elicitation, roots) that Coffer could not attribute to it.
   */
  private async openShared(
    definition: ServerDefinition,
    context: UpstreamConnectContext,
    peer: UpstreamPeer,
  ): Promise<JsonRpcUpstreamConnection> {
    const legacy = this.eras.get(definition) === 'legacy' || definition.transport === 'sse';
    const connection = await this.openOrRetry(
      definition,
      { ...context, clientCapabilities: {} },
      peer,
      legacy ? 'legacy-first' : 'modern-first',
    );
    this.eras.remember(definition, connection.era);
    return connection;
  }

  /** A 2025 stdio server that exits when probed is started again and asked initialize. */
  private async openOrRetry(
    definition: ServerDefinition,
    context: UpstreamConnectContext,
    peer: UpstreamPeer,
    order: NegotiationOrder,
  ): Promise<JsonRpcUpstreamConnection> {
    try {
      return await this.open(definition, context, peer, order);
    } catch (error) {
      if (!(error instanceof EraProbeClosed)) throw error;
      return this.open(definition, context, peer, 'legacy-first');
    }
  }

  private async open(
    definition: ServerDefinition,
    context: UpstreamConnectContext,
    peer: UpstreamPeer,
    negotiation: NegotiationOrder,
  ): Promise<JsonRpcUpstreamConnection> {
    const secrets = (await this.options.resolveSecrets?.(definition)) ?? {};
    const transport = await this.transport(definition, context, secrets);
    return JsonRpcUpstreamConnection.open({
      server: definition.name,
      transport,
      redactError: errorRedactor(definition.name, secrets),
      clientCapabilities: context.clientCapabilities,
      peer,
      negotiation,
      clientInfo: this.options.clientInfo,
      defaultTimeoutMs: this.options.requestTimeoutMs ?? 120_000,
      connectTimeoutMs: this.options.connectTimeoutMs ?? 60_000,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
      ...(this.options.maxTotalTimeoutMs === undefined
        ? {}
        : { maxTotalTimeoutMs: this.options.maxTotalTimeoutMs }),
    });
  }

  private async transport(
    definition: ServerDefinition,
    context: UpstreamConnectContext,
    secrets: Pick<TransportOptions, 'extraEnv' | 'extraHeaders'>,
  ) {
    const logPath = this.options.stderrLogPath?.(definition.name);
    const processes = this.options.processes;
    const commandLine = [definition.command ?? '', ...definition.args].join(' ');
    const stdio = definition.transport === 'stdio';
    const authProvider = stdio ? undefined : this.options.authProvider?.(definition);
    const searchPath = stdio
      ? await this.options.searchPath?.(definition.command ?? '')
      : undefined;
    return createClientTransport(definition, {
      ...secrets,
      ...(searchPath === undefined ? {} : { searchPath }),
      ...(authProvider === undefined ? {} : { authProvider }),
      ...(logPath === undefined ? {} : { stderrLogPath: logPath }),
      ...(processes === undefined
        ? {}
        : {
            onSpawn: (pid: number) =>
              processes.spawned({
                pid,
                server: definition.name,
                commandLine,
                sessionId: context.sessionId,
              }),
            onExit: (pid: number) => processes.exited(pid),
          }),
    });
  }
}

/** A server remembered as modern answered as a 2025 one (it was replaced): not shared. */
class NoLongerModern extends Error {
  override readonly name = 'NoLongerModern';
}
