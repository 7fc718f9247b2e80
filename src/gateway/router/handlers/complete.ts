import type { TargetRelay } from '../../target-relay.js';
import type { RequestHandler } from '../method-table.js';
import { routedOptions } from './routed-options.js';

/** `completion/complete`: relayed to the server of the prompt or resource template. */
export function completeHandler(relay: TargetRelay): RequestHandler {
  return (params, context) => relay.complete(params, routedOptions(context));
}
