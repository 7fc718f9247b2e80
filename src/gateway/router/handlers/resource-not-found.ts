import { UpstreamRpcError } from '../../../domain/ports.js';
import { isObject } from '../../protocol-eras.js';
import type { RequestHandler } from '../method-table.js';

/** What a 2025 server answers a read of a resource it does not have with. */
const LEGACY_RESOURCE_NOT_FOUND = -32002;
const INVALID_PARAMS = -32602;

/**
 * resources/read for a 2026-07-28 client: that revision names an unknown resource with
 * -32602 and the URI in `data.uri` (SEP-2164), where a 2025 upstream said -32002. The era
 * bridge translates the code; the upstream's message and other data pass unchanged.
 */
export function modernResourceNotFound(read: RequestHandler): RequestHandler {
  return async (params, context) => {
    try {
      return await read(params, context);
    } catch (error) {
      if (!(error instanceof UpstreamRpcError) || error.code !== LEGACY_RESOURCE_NOT_FOUND)
        throw error;
      const data = isObject(error.data) ? error.data : {};
      throw new UpstreamRpcError(INVALID_PARAMS, error.message, { ...data, uri: params?.['uri'] });
    }
  };
}
