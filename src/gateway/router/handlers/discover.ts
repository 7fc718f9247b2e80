import type { JsonObject } from '../../../domain/ports.js';
import { META } from '../../../domain/mcp-envelope.js';
import { ALL_PROTOCOL_VERSIONS } from '../../protocol-eras.js';
import type { RequestHandler } from '../method-table.js';

export interface DiscoverParts {
  readonly serverInfo: { readonly name: string; readonly version: string };
  /** What this endpoint offers (a single-server endpoint mirrors its upstream's). */
  readonly capabilities: () => Promise<JsonObject>;
  /** How to use what is served (the upstreams' own words); undefined: none said. */
  readonly instructions: () => Promise<string | undefined>;
}

/**
 * `server/discover` (2026-07-28): what Coffer speaks and offers, asked before anything
 * else by a negotiating client instead of the 2025 initialize. Both eras are listed:
 * a client that finds no version it likes may still initialize.
 */
export function discoverHandler(parts: DiscoverParts): RequestHandler {
  return async () => {
    const [capabilities, instructions] = await Promise.all([
      parts.capabilities(),
      parts.instructions(),
    ]);
    return {
      supportedVersions: [...ALL_PROTOCOL_VERSIONS],
      capabilities,
      ...(instructions === undefined ? {} : { instructions }),
      _meta: { [META.serverInfo]: parts.serverInfo },
    };
  };
}
