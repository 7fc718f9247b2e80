import type { SessionSubscriptions } from '../../session-subscriptions.js';
import type { RequestHandler } from '../method-table.js';

/**
 * resources/subscribe and resources/unsubscribe of a 2025 session, relayed as before and
 * remembered by the session, which subscribes them again if their upstream connection
 * is lost (src/gateway/session-subscriptions.ts). Other methods pass unchanged.
 */
export function heldSubscriptions(
  handlers: readonly (readonly [string, RequestHandler])[],
  subscriptions: SessionSubscriptions,
): (readonly [string, RequestHandler])[] {
  return handlers.map(([method, relayed]) => {
    if (method !== 'resources/subscribe' && method !== 'resources/unsubscribe')
      return [method, relayed] as const;
    const handler: RequestHandler = (params, context) => {
      const uri = params?.['uri'];
      const answer = Promise.resolve(relayed(params, context));
      if (typeof uri !== 'string') return answer;
      return method === 'resources/subscribe'
        ? subscriptions.subscribe(uri, answer)
        : subscriptions.unsubscribe(uri, answer);
    };
    return [method, handler] as const;
  });
}
