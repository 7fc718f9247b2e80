import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CofferError } from '../../../domain/errors.js';
import type { JsonObject } from '../../../domain/ports.js';
import type { ListenHub } from '../../listen-hub.js';
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

/**
 * `subscriptions/listen` (2026-07-28): the request stays open and carries the
 * notifications the client asked for, each stamped with the request's id as its
 * subscription id. It is acknowledged with the part of the filter Coffer honours (the
 * list_changed flags, and with the tasks extension declared the `taskIds` it names;
 * resource subscriptions are not offered). A task's `notifications/tasks` reaches only
 * the streams that named its id. The client ends it by closing the stream or
 * cancelling; Coffer ends it with an empty result when it stops.
 */
export function subscriptionsListenHandler(hub: ListenHub, stopping: AbortSignal): RequestHandler {
  return (params, context) => {
    const { honored, wanted, followed } = readFilter(params);
    const stamp = { [META.subscriptionId]: context.id };
    context.notify('notifications/subscriptions/acknowledged', {
      notifications: honored,
      _meta: stamp,
    });
    const ended = { _meta: stamp };
    if ((wanted.size === 0 && followed.size === 0) || stopping.aborted) return ended;
    return new Promise<JsonObject>((resolve) => {
      const unsubscribe = hub.subscribe((message: JSONRPCMessage) => {
        if (!('method' in message)) return;
        const params = 'params' in message && isObject(message.params) ? message.params : {};
        const task = message.method === TASK_NOTIFICATION ? params['taskId'] : undefined;
        if (!wanted.has(message.method) && !(typeof task === 'string' && followed.has(task)))
          return;
        context.notify(message.method, { ...params, _meta: stamp });
      }, followed);
      const end = (): void => {
        unsubscribe();
        context.signal.removeEventListener('abort', end);
        stopping.removeEventListener('abort', end);
        resolve(ended);
      };
      context.signal.addEventListener('abort', end, { once: true });
      stopping.addEventListener('abort', end, { once: true });
    });
  };
}

/** What of the client's filter Coffer honours: list_changed methods, followed task ids. */
function readFilter(params: JsonObject | undefined): {
  honored: JsonObject;
  wanted: ReadonlySet<string>;
  followed: ReadonlySet<string>;
} {
  const filter = params?.['notifications'];
  if (!isObject(filter))
    throw new CofferError(
      'INVALID_INPUT',
      'subscriptions/listen needs a "notifications" filter object',
    );
  const flags = Object.keys(FLAGS).filter((flag) => filter[flag] === true);
  const taskIds = declaresTasks(params) ? taskIdsOf(filter['taskIds']) : [];
  const honored: JsonObject = {
    ...Object.fromEntries(flags.map((flag) => [flag, true])),
    ...(taskIds.length === 0 ? {} : { taskIds }),
  };
  return {
    honored,
    wanted: new Set(flags.map((flag) => FLAGS[flag]!)),
    followed: new Set(taskIds),
  };
}

/** The `taskIds` of a filter: its distinct strings (anything else names no task). */
function taskIdsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.filter((id): id is string => typeof id === 'string'))];
}
