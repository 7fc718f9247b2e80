import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { UpstreamRpcError, type JsonObject } from '../domain/ports.js';
import { relayValidator } from '../domain/relay-validator.js';
import { DEFAULT_TOOLS_MODE, type ToolsMode } from '../domain/tools-mode.js';
import { newTraceContext, runWithTrace } from '../observability/trace-context.js';
import { BuiltinCalls } from './builtin-calls.js';
import type { GatewayContext } from './gateway-context.js';
import { toolSurface } from './lean-mode.js';
import { aggregatedNamespace, passthroughNamespace, type Namespace } from './namespace.js';
import { InflightRequests } from './inflight-requests.js';
import { JsonFirstTransport } from './json-first-transport.js';
import { ListAnswers } from './list-answers.js';
import { SerializedResults } from './serialized-results.js';
import { LogRelay } from './log-relay.js';
import { RequestRouter } from './request-router.js';
import { toJsonRpcError } from './rpc-error-mapping.js';
import { SessionActivity } from './session-activity.js';
import { SessionCatalog } from './session-catalog.js';
import { UpstreamPool } from './upstream-pool.js';
import { createUpstreamPeer } from './upstream-peer.js';

/** Which upstreams a session serves: all enabled ones, or one under its own names. */
export type SessionScope =
  { readonly kind: 'aggregated' } | { readonly kind: 'single'; readonly server: string };

const LIST_CHANGED = [
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
];

const aggregatedCapabilities: ServerCapabilities = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  completions: {},
  logging: {},
};

/** What a session's transport is built from: its hook for "initialized" and the result cache. */
export interface TransportParts {
  /** Call once the session has its id (the HTTP transport: at the initialize POST). */
  readonly initialized: () => void;
  readonly results: SerializedResults;
}

/** Builds the downstream transport of one session: HTTP (JsonFirstTransport) or a socket line channel. */
export type TransportFactory = (parts: TransportParts) => Transport;

export interface SessionOptions {
  readonly scope: SessionScope;
  readonly context: GatewayContext;
  /** What the client declared at initialize: only these are declared upstream. */
  readonly clientCapabilities: JsonObject;
  /** Aggregated sessions only: full or lean tool list (default: the daemon's setting). */
  readonly toolsMode?: ToolsMode;
  readonly transport: TransportFactory;
  readonly onInitialized: (session: Session) => void;
  readonly onClosed: (session: Session) => void;
}

/**
 * One downstream MCP session (ADR-005): its own SDK Server and transport, its own lazy
 * connection to each upstream, its own cache. Nothing is shared with other sessions,
 * so progress, sampling and roots can only reach the client that caused them.
 */
export class Session {
  readonly transport: Transport;
  readonly server: Server;
  readonly pool: UpstreamPool;
  /** What the client did lately: the session reaper closes vanished and idle sessions. */
  readonly activity: SessionActivity;
  private readonly catalog: SessionCatalog;
  private readonly router: RequestRouter;
  private readonly lists: ListAnswers;
  /** Coffer's own tools; the single-server endpoint mirrors its upstream and has none. */
  private readonly builtins: BuiltinCalls | undefined;
  private readonly inflight = new InflightRequests();
  private readonly logs: LogRelay;
  private closed = false;

  readonly scope: SessionScope;
  private readonly context: GatewayContext;

  constructor(options: SessionOptions) {
    const { scope, context, clientCapabilities } = options;
    this.scope = scope;
    this.context = context;
    this.activity = new SessionActivity(() => context.clock.now().getTime());
    const namespace: Namespace =
      scope.kind === 'single' ? passthroughNamespace(scope.server) : aggregatedNamespace;
    this.server = new Server(context.serverInfo, {
      capabilities: scope.kind === 'single' ? { logging: {} } : aggregatedCapabilities,
      debouncedNotificationMethods: LIST_CHANGED,
      jsonSchemaValidator: relayValidator,
    });
    this.logs = new LogRelay(this.server, scope.kind === 'single');
    this.pool = new UpstreamPool(
      context.connector,
      (name) => ({
        clientCapabilities,
        sessionId: this.transport.sessionId ?? null,
        peer: createUpstreamPeer(name, this.server, namespace, {
          invalidate: (server) => this.catalog.invalidate(server),
          log: (server, params) => {
            context.upstreamLog(server, params);
            this.logs.forward(params, this.inflight.latest(server));
          },
          relatedRequest: (server) => this.inflight.latest(server),
        }),
      }),
      {
        connected: (name) => context.states.connected(name),
        disconnected: (name, crashed) => context.states.disconnected(name, crashed),
        backoffMs: (name) => context.states.backoffMs(name),
      },
      context.processSlots,
    );
    this.catalog = new SessionCatalog({
      pool: this.pool,
      preferences: context.preferences,
      states: context.states,
      listTimeoutMs: context.listTimeoutMs,
      onLateList: (server) => this.capabilitiesChanged(server),
      namespace,
      clock: context.clock,
      ttlMs: context.listTtlMs,
      servers: () => context.enabledServers(scope.kind === 'single' ? scope.server : undefined),
    });
    const listing =
      scope.kind === 'single'
        ? this.catalog
        : toolSurface(this.catalog, options.toolsMode ?? context.toolsMode ?? DEFAULT_TOOLS_MODE);
    const results = new SerializedResults();
    this.lists = new ListAnswers(listing, results);
    this.router = new RequestRouter({
      inflight: this.inflight,
      activity: context.activity,
      clock: context.clock,
      caller: () => {
        const client = this.server.getClientVersion();
        return {
          session_id: this.transport.sessionId ?? null,
          client_name: client?.name ?? null,
          client_version: client?.version ?? null,
        };
      },
      catalog: listing,
      pool: this.pool,
      preferences: context.preferences,
      namespace,
    });
    this.builtins =
      scope.kind === 'single'
        ? undefined
        : new BuiltinCalls({
            catalog: this.catalog,
            callTool: (params, routed) => this.router.handle('tools/call', params, routed),
          });
    this.transport = options.transport({ initialized: () => options.onInitialized(this), results });
    this.transport.onclose = () => {
      void this.close().finally(() => options.onClosed(this));
    };
    // The client's roots changed: every upstream of this session may have asked for them.
    this.server.fallbackNotificationHandler = async (notification) => {
      if (notification.method !== 'notifications/roots/list_changed') return;
      for (const connection of await this.pool.live()) {
        await connection.notify(notification.method, undefined).catch(() => undefined);
      }
    };
    this.server.fallbackRequestHandler = (request, extra) => {
      // A cancelled request gets no answer (the SDK sends none, as the spec asks), but the
      // POST that carried it must not wait for one. (In a batch, the cancel can be handled
      // before this handler runs.)
      if (extra.signal.aborted) this.cancelled(extra.requestId);
      else
        extra.signal.addEventListener('abort', () => this.cancelled(extra.requestId), {
          once: true,
        });
      return runWithTrace(newTraceContext({ sessionId: this.id }), () =>
        this.answer(request.method, request.params as JsonObject | undefined, extra),
      );
    };
  }

  private cancelled(id: string | number): void {
    if (this.transport instanceof JsonFirstTransport) this.transport.forget(id);
  }

  get id(): string {
    return this.transport.sessionId ?? '';
  }

  /**
   * Connects the SDK server to its transport. A single-server session first connects
   * its upstream so it can declare exactly what that upstream offers.
   */
  async start(): Promise<void> {
    if (this.scope.kind === 'single') {
      const [definition] = await this.context.enabledServers(this.scope.server);
      if (definition !== undefined) {
        const upstream = await this.pool.get(definition);
        this.server.registerCapabilities(mirroredCapabilities(upstream.serverCapabilities));
      }
    }
    await this.server.connect(this.transport);
  }

  /** Whether HTTP requests may reach this session (a socket session is its connection's alone). */
  get servesHttp(): boolean {
    return this.transport instanceof JsonFirstTransport;
  }

  /** One HTTP request of an HTTP session (check servesHttp first). */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (!(this.transport instanceof JsonFirstTransport))
      throw new Error('an HTTP request reached a socket session');
    this.activity.track(req.method, res);
    return this.transport.handleRequest(req, res, body);
  }

  /** Capabilities of `server` changed (a preference, a refresh): relist and tell the client. */
  capabilitiesChanged(server?: string): void {
    this.catalog.invalidate(server);
    for (const method of LIST_CHANGED)
      void this.server.notification({ method }).catch(() => undefined);
  }

  /** A server was removed, disabled or redefined: its connection must not be reused. */
  async serverChanged(server: string): Promise<void> {
    await this.pool.evict(server);
    this.capabilitiesChanged(server);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.closeAll();
    await this.server.close().catch(() => undefined);
  }

  private async answer(
    method: string,
    params: JsonObject | undefined,
    extra: { signal: AbortSignal; requestId: string | number },
  ): Promise<JsonObject> {
    if (!this.router.handles(method))
      throw new UpstreamRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
    const token = (params?.['_meta'] as JsonObject | undefined)?.['progressToken'];
    const onProgress =
      token === undefined
        ? undefined
        : (progress: JsonObject) =>
            void this.server
              .notification(
                { method: 'notifications/progress', params: { ...progress, progressToken: token } },
                { relatedRequestId: extra.requestId },
              )
              .catch(() => undefined);
    const options = {
      signal: extra.signal,
      requestId: extra.requestId,
      ...(onProgress === undefined ? {} : { onProgress }),
    };
    try {
      if (this.lists.handles(method, params)) return await this.lists.answer(method);
      return this.builtins?.handles(method, params) === true
        ? await this.builtins.call(params ?? {}, options)
        : await this.router.handle(method, params, options);
    } catch (error) {
      this.context.logFailure(method, error);
      throw toJsonRpcError(error);
    }
  }
}

/** What a single-server session declares: the upstream's own capabilities, minus tasks. */
function mirroredCapabilities(upstream: JsonObject): ServerCapabilities {
  const mirrored: JsonObject = {};
  for (const name of ['tools', 'prompts', 'resources', 'completions']) {
    if (upstream[name] !== undefined) mirrored[name] = upstream[name];
  }
  return mirrored;
}
