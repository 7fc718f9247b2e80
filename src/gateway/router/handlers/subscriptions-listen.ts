import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { CancelSignal } from '../../../domain/cancel-signal.js';
import { CofferError } from '../../../domain/errors.js';
import type { JsonObject } from '../../../domain/ports.js';
import type { ListenHub } from '../../listen-hub.js';
import type { HeldResources, ResourceSubscriptions } from '../../resource-subscriptions.js';
import { META } from '../../../domain/mcp-envelope.js';
import { isObject } from '../../protocol-eras.js';
import { TASK_NOTIFICATION } from '../../task-status-feed.js';
import { declaresTasks } from '../../task-shapes.js';
import type { RequestHandler } from '../method-table.js';

/** The filter flags Coffer honours, and the list_changed each stands for. */
const FLAGS: Readonly<Record<string, string>> = {
  toolsListChanged: 'notifications/tools/list_changed',
  promptsListChanged: 'notifications/prompts/list_changed',
  resourcesListChanged: 'notifications/resources/list_changed',
};

const UPDATED = 'notifications/resources/updated';

const NOTHING_HELD: HeldResources = { uris: [], release: () => undefined };

/**
 * `subscriptions/listen` (2026-07-28): the request stays open and carries the
 * notifications the client asked for, each stamped with the request's id as its
 * subscription id. It is acknowledged with the part of the filter Coffer honours: the
 * list_changed flags, the `resourceSubscriptions` URIs an upstream accepted
 * (resource-subscriptions.ts), and with the tasks extension declared the `taskIds` it
 * names. A resource update reaches only the streams that named its URI, a task's
 * `notifications/tasks` only those that named its id. The client ends it by closing
 * the stream or cancelling; Coffer ends it with an empty result when it stops.
 */
export function subscriptionsListenHandler(
  hub: ListenHub,
  resources: ResourceSubscriptions,
  stopping: CancelSignal,
): RequestHandler {
  return async (params, context) => {
    const { honored, wanted, followed, uris } = readFilter(params);
    const held = uris.length === 0 ? NOTHING_HELD : await resources.hold(uris);
    const updated = new Set(held.uris);
    const stamp = { [META.subscriptionId]: context.id };
    context.notify('notifications/subscriptions/acknowledged', {
      notifications: {
        ...honored,
        ...(held.uris.length === 0 ? {} : { resourceSubscriptions: [...held.uris] }),
      },
      _meta: stamp,
    });
    const ended = { _meta: stamp };
    const idle = wanted.size === 0 && followed.size === 0 && updated.size === 0;
    if (idle || stopping.aborted || context.signal.aborted) {
      held.release();
      return ended;
    }
    /** A notification about one resource or task: for the streams that named it. */
    const names = (method: string, params: JsonObject): boolean => {
      const key = method === UPDATED ? params['uri'] : params['taskId'];
      if (typeof key !== 'string') return false;
      return method === UPDATED
        ? updated.has(key)
        : method === TASK_NOTIFICATION && followed.has(key);
    };
    return new Promise<JsonObject>((resolve) => {
      const unsubscribe = hub.subscribe((message: JSONRPCMessage) => {
        if (!('method' in message)) return;
        const params = 'params' in message && isObject(message.params) ? message.params : {};
        if (!wanted.has(message.method) && !names(message.method, params)) return;
        context.notify(message.method, { ...params, _meta: stamp });
      }, followed);
      const end = (): void => {
        unsubscribe();
        held.release();
        stopCancelled();
        stopStopping();
        resolve(ended);
      };
      const stopCancelled = context.signal.onAbort(end);
      const stopStopping = stopping.onAbort(end);
    });
  };
}

/**
 * What of the client's filter Coffer honours: list_changed methods, followed task ids;
 * and the resource URIs it names, honoured once an upstream accepts them.
 */
function readFilter(params: JsonObject | undefined): {
  honored: JsonObject;
  wanted: ReadonlySet<string>;
  followed: ReadonlySet<string>;
  uris: string[];
} {
  const filter = params?.['notifications'];
  if (!isObject(filter))
    throw new CofferError(
      'INVALID_INPUT',
      'subscriptions/listen needs a "notifications" filter object',
    );
  const flags = Object.keys(FLAGS).filter((flag) => filter[flag] === true);
  const taskIds = declaresTasks(params) ? stringsOf(filter['taskIds']) : [];
  const honored: JsonObject = {
    ...Object.fromEntries(flags.map((flag) => [flag, true])),
    ...(taskIds.length === 0 ? {} : { taskIds }),
  };
  return {
    honored,
    wanted: new Set(flags.map((flag) => FLAGS[flag]!)),
    followed: new Set(taskIds),
    uris: stringsOf(filter['resourceSubscriptions']),
  };
}

/** The distinct strings of a filter's list (`taskIds`, `resourceSubscriptions`). */
function stringsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((id): id is string => typeof id === 'string'))];
}
