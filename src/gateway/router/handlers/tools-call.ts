import type { BuiltinCalls } from '../../builtin-calls.js';
import type { TargetRelay } from '../../target-relay.js';
import type { RequestHandler } from '../method-table.js';
import { routedOptions } from './routed-options.js';

/** `tools/call`: Coffer's own tools (aggregated sessions) or the upstream that owns the name. */
export function toolsCallHandler(relay: TargetRelay, builtins?: BuiltinCalls): RequestHandler {
  return (params, context) => {
    const options = routedOptions(context);
    return builtins?.handles('tools/call', params) === true
      ? builtins.call(params ?? {}, options)
      : relay.relay('tools/call', { type: 'tool', field: 'name' }, params, options);
  };
}
