import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { ServerDefinition } from '../domain/server-definition.js';
import type {
  UpstreamConnectContext,
  UpstreamConnection,
  UpstreamConnector,
} from '../domain/ports.js';
import { createClientTransport, type TransportOptions } from './client-transport.js';
import { JsonRpcUpstreamConnection } from './jsonrpc-upstream-connection.js';

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
  /** The OAuth provider of a remote server (undefined: none, e.g. a static Authorization header). */
  /**
   * The PATH a stdio command is spawned with: undefined keeps the inherited one; for a
   * command it does not find, the login shell's merged in (src/upstream/login-shell-path.ts).
   */
  readonly searchPath?: (command: string) => Promise<string | undefined>;
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
 * Coffer's stdio process transport, under Coffer's own JSON-RPC session.
 */
export class SdkUpstreamConnector implements UpstreamConnector {
  constructor(private readonly options: UpstreamConnectorOptions) {}

  async connect(
    definition: ServerDefinition,
    context: UpstreamConnectContext,
  ): Promise<UpstreamConnection> {
    const secrets = (await this.options.resolveSecrets?.(definition)) ?? {};
    const logPath = this.options.stderrLogPath?.(definition.name);
    const processes = this.options.processes;
    const commandLine = [definition.command ?? '', ...definition.args].join(' ');
    const authProvider =
      definition.transport === 'stdio' ? undefined : this.options.authProvider?.(definition);
    const searchPath =
      definition.transport === 'stdio'
        ? await this.options.searchPath?.(definition.command ?? '')
        : undefined;
    const transport = createClientTransport(definition, {
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
    return JsonRpcUpstreamConnection.open({
      server: definition.name,
      transport,
      clientCapabilities: context.clientCapabilities,
      peer: context.peer,
      clientInfo: this.options.clientInfo,
      defaultTimeoutMs: this.options.requestTimeoutMs ?? 120_000,
      connectTimeoutMs: this.options.connectTimeoutMs ?? 60_000,
      ...(context.signal === undefined ? {} : { signal: context.signal }),
      ...(this.options.maxTotalTimeoutMs === undefined
        ? {}
        : { maxTotalTimeoutMs: this.options.maxTotalTimeoutMs }),
    });
  }
}
