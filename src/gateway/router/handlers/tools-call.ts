import { CofferError } from '../../../domain/errors.js';
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

/**
 * Params are relayed verbatim, so arguments that were no object reached the upstream,
 * whose SDK answered a dump of its schema check (-32603, logged as a daemon error).
 * Checked outside the tasks wrapper, so such a call is refused at once, never as a task.
 */
export function objectArguments(call: RequestHandler): RequestHandler {
  return (params, context) => {
    const args = params?.['arguments'];
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
      throw new CofferError('INVALID_INPUT', 'tools/call "arguments" must be an object', {
        hint: 'send the arguments as a JSON object of the tool\'s inputSchema, e.g. {"path":"a.txt"}',
      });
    return call(params, context);
  };
}
