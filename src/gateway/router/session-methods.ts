import type { BuiltinCalls } from '../builtin-calls.js';
import type { ListingCatalog } from '../lean-mode.js';
import type { ListAnswers } from '../list-answers.js';
import type { LogRelay } from '../log-relay.js';
import type { OversizedResults } from '../oversized-results.js';
import type { TargetRelay } from '../target-relay.js';
import type { TaskRelay } from '../task-relay.js';
import type { UpstreamPool } from '../upstream-pool.js';
import { completeHandler } from './handlers/complete.js';
import { initializeHandler, type InitializeParts } from './handlers/initialize.js';
import { listHandlers } from './handlers/lists.js';
import { pingHandler } from './handlers/ping.js';
import { rootsChangedHandler } from './handlers/roots-changed.js';
import { setLevelHandler } from './handlers/set-level.js';
import { targetedHandlers } from './handlers/targeted.js';
import { taskCreatingCall, tasksHandlers } from './handlers/tasks.js';
import { toolsCallHandler } from './handlers/tools-call.js';
import { methodTable, type MethodTable } from './method-table.js';

/** What a session's methods are built from. */
export interface SessionMethodParts {
  readonly initialize: InitializeParts;
  readonly lists: ListAnswers;
  readonly catalog: ListingCatalog;
  readonly relay: TargetRelay;
  /** Coffer's own tools: aggregated sessions only. */
  readonly builtins?: BuiltinCalls;
  readonly logs: LogRelay;
  readonly pool: UpstreamPool;
  /** Cuts tool results over the daemon's budget and answers reads of them; absent: off. */
  readonly results?: OversizedResults;
  /** The session's tasks (docs/TASKS.md). */
  readonly tasks: TaskRelay;
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
      ...listHandlers(parts.lists, parts.catalog),
      [
        'tools/call',
        taskCreatingCall(parts.tasks, toolsCallHandler(parts.relay, parts.builtins, parts.results)),
      ],
      ...tasksHandlers(parts.tasks),
      ...targetedHandlers(parts.relay, parts.results),
      ['completion/complete', completeHandler(parts.relay)],
    ],
    [
      ['notifications/initialized', () => undefined],
      ['notifications/roots/list_changed', rootsChangedHandler(parts.pool)],
    ],
  );
}
