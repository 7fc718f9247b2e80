import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JsonObject } from '../domain/ports.js';
import { callerTrace } from '../observability/request-trace.js';
import { childTrace } from '../observability/trace-context.js';
import type { GatewayContext } from './gateway-context.js';
import { LIST_CHANGED } from './capability-kinds.js';
import { JsonFirstTransport } from './json-first-transport.js';
import { ListAnswers } from './list-answers.js';
import { OversizedResults } from './oversized-results.js';
import { DownstreamNotifier } from './router/downstream-notifier.js';
import { DownstreamRequests } from './router/downstream-requests.js';
import { ClientHello } from './router/handlers/initialize.js';
import { MessageRouter, type SendToClient } from './router/message-router.js';
import { sessionMethods } from './router/session-methods.js';
import { SerializedResults } from './serialized-results.js';
import { SessionActivity } from './session-activity.js';
import { createSessionParts, type SessionParts } from './session-parts.js';
import { ownedBy, RESOURCE_TARGET, SessionSubscriptions } from './session-subscriptions.js';
import {
  AGGREGATED_CAPABILITIES,
  endpointInstructions,
  singleServerCapabilities,
} from './declared-capabilities.js';
import type { ApprovalGate } from './approval-gate.js';
import type { Caller } from './call-audit.js';
import type { ToolsMode } from '../domain/tools-mode.js';
import type { SessionCatalog } from './session-catalog.js';
import type { UpstreamPool } from './upstream-pool.js';

/** Which upstreams a session serves: all enabled ones, or one under its own names. */

export type SessionScope =
  { readonly kind: 'aggregated' } | { readonly kind: 'single'; readonly server: string };

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
 * One downstream MCP session (ADR-005): its transport, its message router, its own lazy
 * connection to each upstream, its own cache. Nothing is shared with other sessions,
 * so progress, sampling and roots can only reach the client that caused them.
 */
export class Session {
  readonly transport: Transport;
  readonly pool: UpstreamPool;
  /** What the client did lately: the session reaper closes vanished and idle sessions. */
  readonly activity: SessionActivity;
  readonly scope: SessionScope;
  private readonly catalog: SessionCatalog;
  private readonly approval: ApprovalGate | undefined;
  private readonly tasks: SessionParts['tasks'];
  private readonly subscriptions: SessionSubscriptions;
  private readonly router: MessageRouter;
  private readonly notifier: DownstreamNotifier;
  private readonly outbound: DownstreamRequests;
  private readonly hello = new ClientHello();
  private readonly context: GatewayContext;
  private capabilities: JsonObject;
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(options: SessionOptions) {
    const { scope, context } = options;
    this.scope = scope;
    this.context = context;
    this.activity = new SessionActivity(() => context.clock.now().getTime());
    this.capabilities = scope.kind === 'single' ? { logging: {} } : AGGREGATED_CAPABILITIES;
    const send: SendToClient = (message, related) =>
      this.transport.send(
        message,
        related === undefined ? undefined : { relatedRequestId: related },
      );
    this.outbound = new DownstreamRequests(send);
    this.notifier = new DownstreamNotifier(send, new Set(LIST_CHANGED));
    const parts = createSessionParts({
      context,
      scope,
      toolsMode: options.toolsMode,
      clientCapabilities: options.clientCapabilities,
      client: {
        requests: this.outbound,
        notifier: this.notifier,
        capabilities: () => this.hello.capabilities ?? options.clientCapabilities,
      },
      sessionId: () => this.transport.sessionId ?? null,
      caller: () => this.caller(),
      capabilitiesChanged: (server) => this.capabilitiesChanged(server),
      lost: (server) => this.subscriptions.renew(ownedBy(scope, server)),
    });
    this.subscriptions = new SessionSubscriptions({
      resubscribe: (uri) => parts.relay.relay('resources/subscribe', RESOURCE_TARGET, { uri }, {}),
      dropped: (uri, error) => context.logFailure(`resources/subscribe ${uri} (renewal)`, error),
    });
    this.pool = parts.pool;
    this.catalog = parts.catalog;
    this.approval = parts.approval;
    this.tasks = parts.tasks;
    const results = new SerializedResults();
    this.router = new MessageRouter({
      methods: sessionMethods({
        initialize: {
          hello: this.hello,
          serverInfo: context.serverInfo,
          capabilities: () => this.capabilities,
          instructions: () => endpointInstructions(context, this.pool, scope),
        },
        lists: new ListAnswers(parts.listing, results),
        catalog: parts.listing,
        relay: parts.relay,
        skills: parts.skills,
        ...(parts.builtins === undefined ? {} : { builtins: parts.builtins }),
        logs: parts.logs,
        pool: this.pool,
        tasks: parts.tasks,
        subscriptions: this.subscriptions,
        ...(context.resultLimit && {
          results: new OversizedResults(context.resultLimit, context.clock),
        }),
      }),
      send,
      outbound: this.outbound,
      onCancelled: (id) => {
        if (this.transport instanceof JsonFirstTransport) this.transport.forget(id);
      },
      onFailure: (method, error, trace) => context.logFailure(method, error, trace),
      traceFor: (parent) => childTrace(parent, { sessionId: this.id }),
    });
    this.transport = options.transport({ initialized: () => options.onInitialized(this), results });
    this.transport.onmessage = (message, extra) => {
      const headers = extra?.requestInfo?.headers;
      this.router.receive(message, headers === undefined ? undefined : callerTrace(headers));
    };
    this.transport.onclose = () => {
      void this.close().finally(() => options.onClosed(this));
    };
  }

  get id(): string {
    return this.transport.sessionId ?? '';
  }

  /**
   * Starts the transport. A single-server session first connects its upstream so it can
   * declare exactly what that upstream offers.
   */
  async start(): Promise<void> {
    if (this.scope.kind === 'single') {
      const mirrored = await singleServerCapabilities(
        this.context,
        this.pool,
        this.scope.server,
        'session',
      );
      if (mirrored !== undefined) this.capabilities = { logging: {}, ...mirrored };
    }
    await this.transport.start();
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
    this.approval?.forget(server);
    for (const method of LIST_CHANGED) this.notifier.notify(method);
  }

  /**
   * A server was removed, disabled or redefined: its connection must not be reused; the
   * resources the client subscribed to are subscribed again on the new one (if it is
   * still served).
   */
  async serverChanged(server: string): Promise<void> {
    await this.pool.evict(server);
    this.capabilitiesChanged(server);
    if (!this.closed) this.subscriptions.renew(ownedBy(this.scope, server));
  }

  /**
   * Closes the session; a second call waits for the first. The daemon stopping closes
   * every session while a client's disconnect may be closing this one: returning at once
   * let the daemon exit while this session's upstreams were still being ended, and they
   * outlived it.
   */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    this.closed = true;
    this.router.close();
    this.outbound.closeAll();
    // A task outlives its session (docs/TASKS.md): the connections it runs on stay open.
    await this.tasks.release(this.pool);
    await this.transport.close().catch(() => undefined);
  }

  private caller(): Caller {
    return {
      session_id: this.transport.sessionId ?? null,
      client_name: this.hello.info?.name ?? null,
      client_version: this.hello.info?.version ?? null,
    };
  }
}
