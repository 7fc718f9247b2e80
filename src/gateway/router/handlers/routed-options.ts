import type { RoutedRequestOptions } from '../../upstream-forward.js';
import type { RequestContext } from '../method-table.js';

/** A request's cancel signal, progress and id, as the upstream relay takes them. */
export function routedOptions(context: RequestContext): RoutedRequestOptions {
  return {
    signal: context.signal,
    requestId: context.id,
    ...(context.onProgress === undefined ? {} : { onProgress: context.onProgress }),
  };
}
