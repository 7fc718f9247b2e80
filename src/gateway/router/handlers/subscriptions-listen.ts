import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CofferError } from '../../../domain/errors.js';
import type { JsonObject } from '../../../domain/ports.js';
import type { ListenHub } from '../../listen-hub.js';
import { isObject, META } from '../../protocol-eras.js';
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
 * list_changed flags; resource subscriptions are not offered). The client ends it by
 * closing the stream or cancelling; Coffer ends it with an empty result when it stops.
 */
export function subscriptionsListenHandler(hub: ListenHub, stopping: AbortSignal): RequestHandler {
  return (params, context) => {
    const filter = params?.['notifications'];
    if (!isObject(filter))
      throw new CofferError(
        'INVALID_INPUT',
        'subscriptions/listen needs a "notifications" filter object',
      );
    const honored = Object.fromEntries(
      Object.keys(FLAGS)
        .filter((flag) => filter[flag] === true)
        .map((flag) => [flag, true]),
    );
    const wanted = new Set(Object.keys(honored).map((flag) => FLAGS[flag]!));
    const stamp = { [META.subscriptionId]: context.id };
    context.notify('notifications/subscriptions/acknowledged', {
      notifications: honored,
      _meta: stamp,
    });
    const ended = { _meta: stamp };
    if (wanted.size === 0 || stopping.aborted) return ended;
    return new Promise<JsonObject>((resolve) => {
      const unsubscribe = hub.subscribe((message: JSONRPCMessage) => {
        if (!('method' in message) || !wanted.has(message.method)) return;
        const params = 'params' in message && isObject(message.params) ? message.params : {};
        context.notify(message.method, { ...params, _meta: stamp });
      });
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
