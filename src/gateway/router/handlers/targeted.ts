import type { OversizedResults } from '../../oversized-results.js';
import type { Target, TargetRelay } from '../../target-relay.js';
import type { RequestHandler } from '../method-table.js';
import { keptResultRead } from './kept-result-read.js';
import { routedOptions } from './routed-options.js';

/** The methods aimed at one prompt or resource (a skill's included), and the param that names it. */
const targets: readonly (readonly [string, Target])[] = [
  ['prompts/get', { type: 'prompt', field: 'name' }],
  ['resources/read', { type: 'resource', field: 'uri' }],
  ['resources/subscribe', { type: 'resource', field: 'uri' }],
  ['resources/unsubscribe', { type: 'resource', field: 'uri' }],
  // The Skills extension: a skill by its SKILL.md URI, a skill directory's children.
  ['skills/get', { type: 'resource', field: 'uri' }],
  ['resources/directory/read', { type: 'resource', field: 'uri' }],
];

/**
 * prompts/get, resources/read, the resource subscriptions, skills/get and directory reads:
 * relayed to their owner, except reads of the session's own kept results (when it cuts
 * oversized ones).
 */
export function targetedHandlers(
  relay: TargetRelay,
  results?: OversizedResults,
): (readonly [string, RequestHandler])[] {
  return targets.map(([method, target]) => {
    const relayed: RequestHandler = (params, context) =>
      relay.relay(method, target, params, routedOptions(context));
    const handler =
      method === 'resources/read' && results !== undefined
        ? keptResultRead(results, relayed)
        : relayed;
    return [method, handler] as const;
  });
}
