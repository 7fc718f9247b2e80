import type { RoutedRequestOptions } from '../../upstream-forward.js';
import type { RequestContext } from '../method-table.js';

/** A request's cancel signal, progress, id, trace and caller, as the upstream relay takes them. */
export function routedOptions(context: RequestContext): RoutedRequestOptions {
  return {
    signal: context.signal,
    requestId: context.id,
    trace: context.trace,
    // Absent ones as undefined, not left out: one object shape for every request.
    onProgress: context.onProgress,
    caller: context.caller,
  };
}
