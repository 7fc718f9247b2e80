/** The port src/upstream implements: connections to upstream MCP servers. */
import type { CancelSignal } from '../cancel-signal.js';
import type { ServerDefinition } from '../server-definition.js';

/** A JSON-RPC params or result object, relayed verbatim. */
export type JsonObject = Record<string, unknown>;

export interface UpstreamRequestOptions {
  /** The caller's cancel: the connection forwards it (notifications/cancelled). */
  readonly signal?: CancelSignal | undefined;
  /** Idle timeout: reset by each progress notification. */
  readonly timeoutMs?: number | undefined;
  /** Called synchronously for each progress notification of this request. */
  readonly onProgress?: ((params: JsonObject) => void) | undefined;
}

/** What an upstream may ask of the client that owns its session. */
export interface UpstreamPeer {
  /** Server→client requests (roots/list, sampling/createMessage, elicitation/create). */
  request(
    method: string,
    params: JsonObject | undefined,
    signal: CancelSignal,
  ): Promise<JsonObject>;
  /** Notifications other than progress (list_changed, resources/updated, message, …). */
  notify(method: string, params: JsonObject | undefined): void;
}

export interface UpstreamConnectContext {
  /** The downstream client's declared capabilities: only these are declared upstream. */
  readonly clientCapabilities: JsonObject;
  readonly peer: UpstreamPeer;
  readonly sessionId: string | null;
  /** Aborts a connect still in progress (the session closed meanwhile). */
  readonly signal?: AbortSignal;
}

export interface UpstreamConnection {
  readonly server: string;
  /** What the upstream declared at initialize (2025) or server/discover (2026-07-28). */
  readonly serverCapabilities: JsonObject;
  /** The MCP revision spoken with the upstream, e.g. "2025-11-25" or "2026-07-28". */
  readonly protocolVersion?: string;
  /** How to use the server, as it said at the handshake (for the model's prompt). */
  readonly instructions?: string | undefined;
  /**
   * True when other sessions use the same upstream connection (a 2026-07-28 upstream, or
   * a server the user marked `shared`): it holds no process of this session's own.
   */
  readonly shared?: boolean;
  /**
   * Of the sessions sharing a connection that ended on its own, true for one only: the
   * end is one crash of the upstream, not one per session.
   */
  readonly reportsEnd?: boolean;
  /** Resolves the JSON-RPC result verbatim; rejects with a CofferError or an UpstreamRpcError. */
  request(
    method: string,
    params: JsonObject | undefined,
    options?: UpstreamRequestOptions,
  ): Promise<JsonObject>;
  notify(method: string, params: JsonObject | undefined): Promise<void>;
  close(): Promise<void>;
  /** Resolves when the connection ends, for whatever reason. */
  readonly closed: Promise<void>;
}

export interface UpstreamConnector {
  /** Spawns or dials the upstream and completes its initialize handshake. */
  connect(
    definition: ServerDefinition,
    context: UpstreamConnectContext,
  ): Promise<UpstreamConnection>;
}

/** A JSON-RPC error answered by an upstream: relayed to the client unchanged. */
export class UpstreamRpcError extends Error {
  override readonly name = 'UpstreamRpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
