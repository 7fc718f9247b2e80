import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { CofferError } from '../../../domain/errors.js';
import type { JsonObject } from '../../../domain/ports.js';
import type { RequestHandler } from '../method-table.js';

/** What the client said about itself at initialize. */
export class ClientHello {
  protocolVersion: string | undefined;
  capabilities: JsonObject | undefined;
  info: { readonly name: string | null; readonly version: string | null } | undefined;
}

export interface InitializeParts {
  readonly hello: ClientHello;
  readonly serverInfo: { readonly name: string; readonly version: string };
  /** Read at initialize: a single-server session knows its upstream's only by then. */
  readonly capabilities: () => JsonObject;
  /** How to use what is served (the upstreams' own words); undefined: none said. */
  readonly instructions: () => Promise<string | undefined>;
}

/**
 * `initialize`: the version is the client's when Coffer speaks it, else the latest
 * Coffer speaks (the client then decides whether to go on), as the SDK negotiates.
 */
export function initializeHandler(parts: InitializeParts): RequestHandler {
  return async (params) => {
    const requested = params?.['protocolVersion'];
    if (typeof requested !== 'string')
      throw new CofferError('INVALID_INPUT', 'initialize needs a string "protocolVersion"');
    const capabilities = params?.['capabilities'] ?? {};
    if (!isObject(capabilities))
      throw new CofferError('INVALID_INPUT', 'initialize "capabilities" must be an object');
    const info = isObject(params?.['clientInfo']) ? params['clientInfo'] : {};
    const { hello } = parts;
    hello.protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(requested)
      ? requested
      : LATEST_PROTOCOL_VERSION;
    hello.capabilities = capabilities;
    hello.info = { name: stringOrNull(info['name']), version: stringOrNull(info['version']) };
    const instructions = await parts.instructions();
    return {
      protocolVersion: hello.protocolVersion,
      capabilities: parts.capabilities(),
      serverInfo: parts.serverInfo,
      ...(instructions === undefined ? {} : { instructions }),
    };
  };
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
