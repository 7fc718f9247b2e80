import type { OversizedResults } from '../../oversized-results.js';
import type { RequestHandler } from '../method-table.js';

/**
 * `resources/read` of a kept oversized result (`coffer://coffer/results/…`) is answered
 * by the session itself; every other URI goes on to `relayed`.
 */
export function keptResultRead(results: OversizedResults, relayed: RequestHandler): RequestHandler {
  return (params, context) => {
    const uri = params?.['uri'];
    return results.handles(uri) ? results.read(uri) : relayed(params, context);
  };
}
