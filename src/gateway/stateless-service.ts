import { Cancellation } from '../domain/cancel-signal.js';
import type { JsonObject } from '../domain/ports.js';
import type { ToolsMode } from '../domain/tools-mode.js';
import { newTraceContext } from '../observability/trace-context.js';
import { LIST_CHANGED } from './capability-kinds.js';
import {
  MODERN_AGGREGATED_CAPABILITIES,
  runsToolTasks,
  endpointInstructions,
  singleServerCapabilities,
} from './declared-capabilities.js';
import type { GatewayContext } from './gateway-context.js';
import { ListAnswers } from './list-answers.js';
import { ListenHub } from './listen-hub.js';
import { ModernResults } from './modern-results.js';
import { RequestLogs } from './request-logs.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { ownedBy, RESOURCE_TARGET } from './session-subscriptions.js';
import { NOBODY, withCallers } from './request-callers.js';
import { OversizedResults } from './oversized-results.js';
import { DownstreamNotifier } from './router/downstream-notifier.js';
import { InputBridge } from './input-bridge.js';
import { EVERY_INPUT_CAPABILITY } from './input-capabilities.js';
import type { MethodTable } from './router/method-table.js';
import { MessageRouter, type SendToClient } from './router/message-router.js';
import { statelessMethods } from './router/session-methods.js';
import { SerializedResults } from './serialized-results.js';
import { TaskExtension } from './task-extension.js';
import { TASKS_EXTENSION } from './task-shapes.js';
import { TaskStatusFeed } from './task-status-feed.js';
import { META } from '../domain/mcp-envelope.js';
import { createSessionParts, type SessionParts } from './session-parts.js';
import type { SessionScope } from './session.js';

/** What a client of the tasks extension declares: how Coffer asks on its own behalf. */
const TASKS_CLIENT = { extensions: { [TASKS_EXTENSION]: {} } };

export interface StatelessServiceOptions {
  readonly context: GatewayContext;
  readonly scope: SessionScope;
  /** Aggregated scope only: full or lean tool list (default: the daemon's setting). */
  readonly toolsMode?: ToolsMode;
}

/**
 * The 2026-07-28 side of one endpoint (docs/ARCHITECTURE.md "Two eras"): requests carry
 * their own envelope and need no session, so every such request of a scope and tools
 * mode is answered by the same parts (catalog, routes, upstream connections). What
 * belongs to one request (its answer, progress, log lines, a subscriptions/listen
 * stream) travels only through the channel that request came on; an upstream's question
 * reaches the client as an input-required result (input-bridge.ts).
 */
export class StatelessService {
  private readonly hub = new ListenHub();
  private readonly stopping = new Cancellation();
  /** Upstreams' questions to the client, turned into input-required results. */
  private readonly requests = new InputBridge();
  /** Upstream task status, as the extension's notifications/tasks for who follows it. */
  private readonly feed = new TaskStatusFeed({
    hub: this.hub,
    detail: (taskId) => this.taskNow(taskId),
  });
  private readonly notifier = new DownstreamNotifier(
    (message) => this.feed.publish(message),
    new Set(LIST_CHANGED),
  );
  /** Upstream log lines, for the request that asked for them in its `_meta`. */
  private readonly logs = new RequestLogs();
  /** Resource URIs the listen streams name, subscribed upstream while somebody listens. */
  private readonly subscriptions = new ResourceSubscriptions((method, uri) =>
    this.parts.relay.relay(method, RESOURCE_TARGET, { uri }, { signal: this.stopping }),
  );
  private readonly parts: SessionParts;
  private readonly methods: MethodTable;
  /**
   * Serialisations of the results every channel sends again and again (a warm list, in
   * its 2026-07-28 form): the channels write their answers through it.
   */
  readonly serialized = new SerializedResults();

  constructor(private readonly options: StatelessServiceOptions) {
    const { context, scope } = options;
    this.parts = createSessionParts({
      context,
      scope,
      toolsMode: options.toolsMode,
      // Declared upstream so a 2025 upstream may ask; the bridge asks the client that
      // caused the question, and only if that client declared what it needs (its mode too).
      clientCapabilities: EVERY_INPUT_CAPABILITY,
      client: {
        requests: this.requests,
        notifier: this.notifier,
        capabilities: (related) => this.requests.capabilities(related),
        undeclared: (method, capability, related) =>
          this.requests.undeclared(method, capability, related),
      },
      sessionId: () => null,
      caller: () => NOBODY,
      capabilitiesChanged: (server) => this.capabilitiesChanged(server),
      // One catalog serves every request: task-only tools are hidden per request instead.
      runsTasks: () => true,
      sharedConnections: {
        log: (params, related) => this.logs.forward(params, related),
        waiting: (request) => this.requests.waiting(request),
      },
      lost: (server) => this.subscriptions.renew(ownedBy(this.options.scope, server)),
    });
    const results =
      context.resultLimit === undefined
        ? undefined
        : new OversizedResults(context.resultLimit, context.clock);
    this.methods = withCallers(
      this.logs.wrap(
        statelessMethods({
          discover: {
            serverInfo: context.serverInfo,
            capabilities: () => this.capabilities(),
            instructions: () => endpointInstructions(context, this.parts.pool, options.scope),
          },
          hub: this.hub,
          subscriptions: this.subscriptions,
          bridge: this.requests,
          stopping: this.stopping,
          tasks: this.taskExtension(results),
          lists: new ListAnswers(this.parts.listing, this.serialized),
          modern: new ModernResults(this.serialized),
          catalog: this.parts.listing,
          relay: this.parts.relay,
          skills: this.parts.skills,
          ...(this.parts.builtins === undefined ? {} : { builtins: this.parts.builtins }),
          pool: this.parts.pool,
          ...(results === undefined ? {} : { results }),
        }),
      ),
    );
  }

  /** The tasks extension over this endpoint's upstreams (docs/TASKS.md). */
  private taskExtension(results: OversizedResults | undefined): TaskExtension {
    const { catalog, builtins, relay, pool } = this.parts;
    const { schedule } = this.options.context;
    return new TaskExtension({
      relay: this.parts.tasks,
      changed: (taskId) => this.feed.changed(taskId),
      // A result answered as the call's own is finished as a call's result is.
      finish: (result) => relay.redactLate(result, results),
      ...(schedule === undefined ? {} : { schedule }),
      tool: async (name) =>
        builtins?.handles('tools/call', { name }) === true
          ? undefined
          : (await catalog.resolve('tool', name))?.item,
      runsTasks: async (name) => {
        const route = await catalog.resolve('tool', name);
        if (route === undefined) return false;
        return runsToolTasks((await pool.get(route.server)).serverCapabilities);
      },
    });
  }

  /**
   * A channel to one client: one HTTP request, or one socket connection. Its router
   * answers on `send` only; closing it aborts what still runs for that client.
   */
  channel(send: SendToClient): MessageRouter {
    const { context } = this.options;
    return new MessageRouter({
      methods: this.methods,
      send,
      outbound: this.requests,
      onFailure: (method, error, trace) => context.logFailure(method, error, trace),
    });
  }

  /**
   * The listed inputSchema of the tool a client calls by `name`, for the check of its
   * `Mcp-Param-*` headers; undefined for Coffer's own tools and names nothing lists (the
   * call itself then says why).
   */
  async toolInputSchema(name: string): Promise<unknown> {
    const { catalog, builtins } = this.parts;
    if (builtins?.handles('tools/call', { name }) === true) return undefined;
    const found = await catalog.resolve('tool', name).catch(() => undefined);
    return found?.item?.['inputSchema'];
  }

  /** Capabilities of `server` changed: relist, and tell the listeners. */
  capabilitiesChanged(server?: string): void {
    this.parts.catalog.invalidate(server);
    this.parts.approval?.forget(server);
    for (const method of LIST_CHANGED) this.notifier.notify(method);
  }

  /**
   * A server was removed, disabled or redefined: its connection must not be reused; its
   * resources listened to are subscribed again on the new one (if it is still served).
   */
  async serverChanged(server: string): Promise<void> {
    await this.parts.pool.evict(server);
    this.capabilitiesChanged(server);
    this.subscriptions.renew(ownedBy(this.options.scope, server));
  }

  /** Coffer stops: listeners get their closing result, upstreams are closed. */
  async close(): Promise<void> {
    this.stopping.abort();
    this.requests.closeAll();
    await this.parts.pool.closeAll();
  }

  /** A task as tasks/get shows it to a client of the extension (outcome redacted). */
  private async taskNow(taskId: string): Promise<JsonObject> {
    const get = this.methods.requests.get('tasks/get');
    if (get === undefined) throw new Error('the stateless methods have no tasks/get');
    const params = { taskId, _meta: { [META.clientCapabilities]: TASKS_CLIENT } };
    const signal = this.stopping;
    const trace = newTraceContext();
    return get(params, { id: 'coffer-task-status', signal, notify: () => undefined, trace });
  }

  private async capabilities(): Promise<JsonObject> {
    const { scope, context } = this.options;
    if (scope.kind === 'aggregated') return MODERN_AGGREGATED_CAPABILITIES;
    return (
      (await singleServerCapabilities(context, this.parts.pool, scope.server, 'stateless')) ?? {}
    );
  }
}
