import { adminEntry } from '../domain/admin-entry.js';
import type { JsonObject } from '../domain/ports.js';
import { DEFAULT_TOOLS_MODE, type ToolsMode } from '../domain/tools-mode.js';
import { ApprovalGate } from './approval-gate.js';
import { BuiltinCalls } from './builtin-calls.js';
import { CallAudit, type Caller } from './call-audit.js';
import { CapabilityRoutes } from './capability-routes.js';
import { guardedInstructions } from './declared-capabilities.js';
import type { GatewayContext } from './gateway-context.js';
import { InflightRequests } from './inflight-requests.js';
import { toolSurface, type ListingCatalog } from './lean-mode.js';
import { LogRelay } from './log-relay.js';
import { aggregatedNamespace, passthroughNamespace, type Namespace } from './namespace.js';
import { SessionCatalog } from './session-catalog.js';
import { SkillListing } from './skill-listing.js';
import type { RequestId } from './router/method-table.js';
import type { SessionScope } from './session.js';
import { TargetRelay } from './target-relay.js';
import { taskAwarePeer } from './task-peer.js';
import { TaskRegistry } from './task-registry.js';
import { TaskRelay } from './task-relay.js';
import { UpstreamForward } from './upstream-forward.js';
import { UpstreamPool } from './upstream-pool.js';
import { createUpstreamPeer, type DownstreamClient } from './upstream-peer.js';

/** What the parts need of the session that owns them. */
export interface SessionHooks {
  readonly context: GatewayContext;
  readonly scope: SessionScope;
  readonly toolsMode: ToolsMode | undefined;
  /** What the client declared: only these are declared upstream. */
  readonly clientCapabilities: JsonObject;
  readonly client: DownstreamClient;
  readonly sessionId: () => string | null;
  readonly caller: () => Caller;
  /** An upstream's list arrived late or changed: relist and tell the client. */
  readonly capabilitiesChanged: (server: string) => void;
  /**
   * Whether the catalog lists task-only tools (default: the client declared `tasks`).
   * The stateless service lists them always and hides them per request.
   */
  readonly runsTasks?: () => boolean;
  /**
   * The stateless service's connections serve many clients' requests at once: an
   * upstream's question or log line belongs to the one request in flight to that
   * upstream (none when several are), and log lines go to `log`, not to a session.
   */
  readonly sharedConnections?: {
    readonly log: (params: JsonObject, related: RequestId | undefined) => void;
    /**
     * The request is blocked on its client's answers (an input_required result went
     * out): its upstream handler waits on them, so a new question is not its own.
     */
    readonly waiting: (request: RequestId) => boolean;
  };
  /**
   * A connection to `server` ended that this session did not close (it crashed, or the
   * shared connection it leased did): what it held there, its subscriptions, is gone.
   */
  readonly lost?: (server: string) => void;
}

/** The upstream side of one session: its connections, lists, routes and relay. */
export interface SessionParts {
  readonly pool: UpstreamPool;
  readonly catalog: SessionCatalog;
  /** What the client lists: the catalog, with Coffer's tools on the aggregated endpoint. */
  readonly listing: ListingCatalog;
  readonly relay: TargetRelay;
  readonly skills: SkillListing;
  readonly builtins: BuiltinCalls | undefined;
  readonly logs: LogRelay;
  readonly approval: ApprovalGate | undefined;
  readonly tasks: TaskRelay;
}

/** Wires the parts of one session; each is its own file and its own test. */
export function createSessionParts(hooks: SessionHooks): SessionParts {
  const { context, scope } = hooks;
  const only = scope.kind === 'single' ? scope.server : undefined;
  const namespace = only === undefined ? aggregatedNamespace : passthroughNamespace(only);
  const inflight = new InflightRequests();
  const logs = new LogRelay(
    (params, related) => hooks.client.notifier.notify('notifications/message', params, related),
    only !== undefined,
  );
  // The catalog and tasks are made after the pool, but the pool's peers need them.
  const pool = createPool(hooks, namespace, inflight, logs, {
    invalidate: (server) => catalog.invalidate(server),
    tasks: () => tasks,
  });
  const catalog = new SessionCatalog({
    pool,
    preferences: context.preferences,
    ...(context.pins === undefined ? {} : { pins: context.pins }),
    states: context.states,
    listTimeoutMs: context.listTimeoutMs,
    onLateList: hooks.capabilitiesChanged,
    namespace,
    clock: context.clock,
    ttlMs: context.listTtlMs,
    servers: () => context.enabledServers(only),
    runsTasks: hooks.runsTasks ?? (() => hooks.client.capabilities()?.['tasks'] !== undefined),
  });
  const tasks = new TaskRelay({
    registry: context.tasks ?? new TaskRegistry({ clock: context.clock }),
    pool,
    toolServer: async (name) => (await catalog.resolve('tool', name))?.server,
    notify: (method, params) => hooks.client.notifier.notify(method, params),
    now: () => context.clock.now().getTime(),
    inflight,
  });
  const listing =
    only !== undefined
      ? catalog
      : toolSurface(catalog, hooks.toolsMode ?? context.toolsMode ?? DEFAULT_TOOLS_MODE);
  const approval =
    context.policies === undefined
      ? undefined
      : new ApprovalGate(context.policies, hooks.client, (server, key) => {
          recordPolicySet(context, hooks.caller(), server, key);
          context.policyChanged?.(server);
        });
  const routes = new CapabilityRoutes({
    catalog: listing,
    preferences: context.preferences,
    namespace,
    serves: async (name) =>
      (only === undefined || only === name) && (await context.enabledServers(name)).length > 0,
    disabled: async (name) =>
      (only === undefined || only === name) && (await context.isDisabled?.(name)) === true,
  });
  const upstream = new UpstreamForward(pool, inflight);
  const relay = new TargetRelay({
    ...(approval === undefined ? {} : { approval }),
    ...(context.secretGuard === undefined ? {} : { guard: context.secretGuard }),
    routes,
    upstream,
    audit: new CallAudit(context.activity, context.clock, hooks.caller),
    namespace,
  });
  const builtins =
    only !== undefined
      ? undefined
      : new BuiltinCalls({
          catalog,
          callTool: (params, routed) =>
            relay.relay('tools/call', { type: 'tool', field: 'name' }, params, routed),
        });
  const skills = skillListing(context, only, { pool, routes, upstream, namespace });
  return { pool, catalog, listing, relay, skills, builtins, logs, approval, tasks };
}

/** skills/list over the session's servers, with the same routes and relay as its reads. */
function skillListing(
  context: GatewayContext,
  only: string | undefined,
  parts: {
    pool: UpstreamPool;
    routes: CapabilityRoutes;
    upstream: UpstreamForward;
    namespace: Namespace;
  },
): SkillListing {
  const { pool, routes, upstream, namespace } = parts;
  return new SkillListing({
    servers: () => context.enabledServers(only),
    capabilities: async (server) => (await pool.get(server)).serverCapabilities,
    forward: (server, method, params, options) => upstream.forward(server, method, params, options),
    // A skill is listed when its SKILL.md may be read: the same check as the read's.
    readable: (uri) =>
      routes.route('resource', uri).then(
        () => true,
        () => false,
      ),
    namespace,
    timeoutMs: context.listTimeoutMs,
  });
}

function createPool(
  hooks: SessionHooks,
  namespace: Namespace,
  inflight: InflightRequests,
  logs: LogRelay,
  late: { invalidate: (server: string) => void; tasks: () => TaskRelay },
): UpstreamPool {
  const { context } = hooks;
  const shared = hooks.sharedConnections;
  const related = (server: string) =>
    shared === undefined
      ? inflight.latest(server)
      : inflight.sole(server, (id) => !shared.waiting(id));
  return new UpstreamPool(
    context.connector,
    (name) => ({
      clientCapabilities: hooks.clientCapabilities,
      sessionId: hooks.sessionId(),
      peer: taskAwarePeer(
        createUpstreamPeer(name, hooks.client, namespace, {
          invalidate: late.invalidate,
          log: (server, params) => {
            context.upstreamLog(server, params);
            const request = related(server);
            // A server's log line reaches the agent as its results do: without stored secrets.
            const relay = (line: typeof params): void => {
              if (shared === undefined) logs.forward(line, request);
              else shared.log(line ?? {}, request);
            };
            if (context.secretGuard === undefined) relay(params);
            else context.secretGuard.withRedacted(params, relay);
          },
          relatedRequest: related,
        }),
        name,
        late.tasks(),
      ),
    }),
    {
      connected: (name, connection) => {
        context.states.connected(name, connection.protocolVersion);
        // Not kept when the guard cannot read the secrets (a locked keychain): said next time.
        void guardedInstructions(context, connection.instructions).then(
          (text) => context.instructions?.heard(name, text),
          () => undefined,
        );
      },
      disconnected: (name, crashed, lost, local) => {
        context.states.disconnected(name, crashed, local);
        if (lost) hooks.lost?.(name);
      },
      backoffMs: (name) => context.states.backoffMs(name),
    },
    context.processSlots,
  );
}

/**
 * "Always allow" answered in an approval question: the policy it stored is an admin
 * action as `coffer mcp policy` is one (the activity log, and the configuration snapshot
 * that follows admin rows), made by the agent's user through that agent.
 */
function recordPolicySet(context: GatewayContext, caller: Caller, server: string, key: string) {
  context.activity.record(
    adminEntry({
      at: context.clock.now().toISOString(),
      client: { name: caller.client_name, version: caller.client_version },
      server,
      key,
      action: 'policy.set',
    }),
  );
}
