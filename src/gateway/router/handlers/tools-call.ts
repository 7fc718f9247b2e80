import type { BuiltinCalls } from '../../builtin-calls.js';
import type { OversizedResults } from '../../oversized-results.js';
import type { TargetRelay } from '../../target-relay.js';
import type { RequestHandler } from '../method-table.js';
import { routedOptions } from './routed-options.js';

/**
 * `tools/call`: Coffer's own tools (aggregated sessions) or the upstream that owns the
 * name; a result over the session's budget is cut, its whole kept to read in pages.
 */
export function toolsCallHandler(
  relay: TargetRelay,
  builtins?: BuiltinCalls,
  results?: OversizedResults,
): RequestHandler {
  return async (params, context) => {
    const options = routedOptions(context);
    const result = await (builtins?.handles('tools/call', params) === true
      ? builtins.call(params ?? {}, options)
      : relay.relay('tools/call', { type: 'tool', field: 'name' }, params, options));
    return results === undefined ? result : results.fit(result);
  };
}
