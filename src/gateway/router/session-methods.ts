import type { CancelSignal } from '../../domain/cancel-signal.js';
import type { BuiltinCalls } from '../builtin-calls.js';
import type { ListingCatalog } from '../lean-mode.js';
import type { ListAnswers } from '../list-answers.js';
import type { LogRelay } from '../log-relay.js';
import type { OversizedResults } from '../oversized-results.js';
import type { TargetRelay } from '../target-relay.js';
import type { TaskExtension } from '../task-extension.js';
import type { TaskRelay } from '../task-relay.js';
import type { UpstreamPool } from '../upstream-pool.js';
import type { InputBridge } from '../input-bridge.js';
import type { ListenHub } from '../listen-hub.js';
import type { ResourceSubscriptions } from '../resource-subscriptions.js';
import type { ModernResults } from '../modern-results.js';
import { modernResourceNotFound } from './handlers/resource-not-found.js';
import { completeHandler } from './handlers/complete.js';
import { discoverHandler, type DiscoverParts } from './handlers/discover.js';
import { initializeHandler, type InitializeParts } from './handlers/initialize.js';
import { listHandlers } from './handlers/lists.js';
import { pingHandler } from './handlers/ping.js';
import { rootsChangedHandler } from './handlers/roots-changed.js';
import { setLevelHandler } from './handlers/set-level.js';
import { skillsListHandler } from './handlers/skills-list.js';
import type { SkillListing } from '../skill-listing.js';
import { subscriptionsListenHandler } from './handlers/subscriptions-listen.js';
import { heldSubscriptions } from './handlers/held-subscriptions.js';
import { targetedHandlers } from './handlers/targeted.js';
import {
  taskCreatingCall,
  taskExtensionCall,
  taskExtensionHandlers,
  tasksHandlers,
  withoutTaskOnlyTools,
} from './handlers/tasks.js';
import { objectArguments, toolsCallHandler } from './handlers/tools-call.js';
import type { SessionSubscriptions } from '../session-subscriptions.js';
import { methodTable, type MethodTable, type RequestHandler } from './method-table.js';

/** What a session's methods are built from. */
export interface SessionMethodParts {
  readonly initialize: InitializeParts;
  readonly lists: ListAnswers;
  readonly catalog: ListingCatalog;
  readonly relay: TargetRelay;
  /** skills/list over the upstreams that serve skills (skills/get is a targeted method). */
  readonly skills: SkillListing;
  /** Coffer's own tools: aggregated sessions only. */
  readonly builtins?: BuiltinCalls;
  readonly logs: LogRelay;
  readonly pool: UpstreamPool;
  /** Cuts tool results over the daemon's budget and answers reads of them; absent: off. */
  readonly results?: OversizedResults;
  /** The session's tasks (docs/TASKS.md). */
  readonly tasks: TaskRelay;
  /** The resources its client subscribed to, renewed when their connection is lost. */
  readonly subscriptions: SessionSubscriptions;
}

/**
 * The method table of one downstream session: every request and notification a client
 * may send, and the one handler (in ./handlers) that answers it. A method missing here
 * is answered "Method not found" by the router.
 */
export function sessionMethods(parts: SessionMethodParts): MethodTable {
  return methodTable(
    [
      ['initialize', initializeHandler(parts.initialize)],
      ['ping', pingHandler],
      ['logging/setLevel', setLevelHandler(parts.logs)],
      ...heldSubscriptions(
        relayedMethods(parts, (call) => taskCreatingCall(parts.tasks, call)),
        parts.subscriptions,
      ),
      ...redactedTaskResults(
        parts.relay,
        'tasks/result',
        tasksHandlers(parts.tasks),
        parts.results,
      ),
    ],
    [
      ['notifications/initialized', () => undefined],
      ['notifications/roots/list_changed', rootsChangedHandler(parts.pool)],
    ],
  );
}

/** What the stateless (2026-07-28) methods are built from. */
export interface StatelessMethodParts extends Omit<
  SessionMethodParts,
  'initialize' | 'logs' | 'tasks' | 'subscriptions'
> {
  readonly discover: DiscoverParts;
  readonly hub: ListenHub;
  /** The resource URIs listen streams name, subscribed upstream while somebody listens. */
  readonly subscriptions: ResourceSubscriptions;
  /** Turns an upstream's question during a call into an input-required result. */
  readonly bridge: InputBridge;
  /** Aborted when Coffer stops: open subscriptions/listen requests end gracefully. */
  readonly stopping: CancelSignal;
  /** The 2026-07-28 tasks extension (docs/TASKS.md). */
  readonly tasks: TaskExtension;
  /** Results in their 2026-07-28 form; a list's made once while it is unchanged. */
  readonly modern: ModernResults;
}

/**
 * The methods of a 2026-07-28 request: no initialize, ping, logging/setLevel, resource
 * subscriptions or session notifications (the revision removed them); server/discover and
 * subscriptions/listen instead, and the tasks extension's methods; every result with its resultType and, on
 * lists, cache hints. Task-only tools are listed to clients that declare the extension.
 */
export function statelessMethods(parts: StatelessMethodParts): MethodTable {
  const entries: (readonly [string, RequestHandler])[] = [
    ['server/discover', discoverHandler(parts.discover)],
    [
      'subscriptions/listen',
      subscriptionsListenHandler(parts.hub, parts.subscriptions, parts.stopping),
    ],
    ...relayedMethods(parts, (call) => taskExtensionCall(parts.tasks, call))
      .filter(([method]) => !REMOVED_IN_2026.has(method))
      .map(([method, handler]) => [method, modernHandler(method, handler)] as const),
    ...redactedTaskResults(parts.relay, 'tasks/get', taskExtensionHandlers(parts.tasks)),
  ];
  return methodTable(
    entries.map(([method, handler]) => {
      const bridged: RequestHandler = MULTI_ROUND_TRIP.has(method)
        ? (params, context) =>
            parts.bridge.run(params, context.id, async () => handler(params, context))
        : handler;
      return [
        method,
        async (params, context) => parts.modern.of(method, await bridged(params, context)),
      ];
    }),
  );
}

/** What differs in a relayed method's handler for 2026-07-28 clients. */
function modernHandler(method: string, handler: RequestHandler): RequestHandler {
  if (method === 'tools/list') return withoutTaskOnlyTools(handler);
  if (method === 'resources/read') return modernResourceNotFound(handler);
  return handler;
}

/**
 * The task method that carries a task's outcome passes the secret guard's redaction and,
 * given `results`, the cut of a result over the budget, as a relayed call's result does
 * (the 2026-07-28 extension cuts the result it embeds itself: TaskExtension).
 */
function redactedTaskResults(
  relay: TargetRelay,
  outcome: string,
  handlers: (readonly [string, RequestHandler])[],
  results?: OversizedResults,
): (readonly [string, RequestHandler])[] {
  return handlers.map(([method, handler]) => [
    method,
    method === outcome
      ? async (params, context) => relay.redactLate(await handler(params, context), results)
      : handler,
  ]);
}

/**
 * Methods 2026-07-28 removed (with ping, initialize and logging/setLevel, which the
 * stateless table never had): resource updates reach a client through subscriptions/listen,
 * log lines on the response stream of the request that asked for them in its `_meta`.
 */
const REMOVED_IN_2026 = new Set(['resources/subscribe', 'resources/unsubscribe']);

/** The 2026-07-28 methods whose result may be input_required. */
const MULTI_ROUND_TRIP = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * The methods both eras relay to the upstreams. `wrapCall` runs tools/call through each
 * era's tasks: the 2025-11-25 relay for sessions, the 2026-07-28 extension for requests.
 */
function relayedMethods(
  parts: Omit<SessionMethodParts, 'initialize' | 'logs' | 'tasks' | 'subscriptions'>,
  wrapCall: (call: RequestHandler) => RequestHandler,
): (readonly [string, RequestHandler])[] {
  return [
    ...listHandlers(parts.lists, parts.catalog),
    [
      'tools/call',
      objectArguments(wrapCall(toolsCallHandler(parts.relay, parts.builtins, parts.results))),
    ],
    ...targetedHandlers(parts.relay, parts.results),
    ['completion/complete', completeHandler(parts.relay)],
    ['skills/list', skillsListHandler(parts.skills)],
  ];
}
