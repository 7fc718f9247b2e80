import type { Target, TargetRelay } from '../../target-relay.js';
import type { RequestHandler } from '../method-table.js';
import { routedOptions } from './routed-options.js';

/** The methods aimed at one prompt or resource, and the param that names it. */
const targets: readonly (readonly [string, Target])[] = [
  ['prompts/get', { type: 'prompt', field: 'name' }],
  ['resources/read', { type: 'resource', field: 'uri' }],
  ['resources/subscribe', { type: 'resource', field: 'uri' }],
  ['resources/unsubscribe', { type: 'resource', field: 'uri' }],
];

/** prompts/get, resources/read and the resource subscriptions: relayed to their owner. */
export function targetedHandlers(relay: TargetRelay): (readonly [string, RequestHandler])[] {
  return targets.map(([method, target]) => {
    const handler: RequestHandler = (params, context) =>
      relay.relay(method, target, params, routedOptions(context));
    return [method, handler] as const;
  });
}
