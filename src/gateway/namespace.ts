import type { CapabilityType } from '../domain/capability.js';
import { exposedName, exposedUri, splitExposedName, splitExposedUri } from '../domain/naming.js';

/**
 * How a session names what upstreams offer. The aggregated endpoint prefixes names
 * and URIs with the server; the single-server endpoint keeps the originals.
 */
export interface Namespace {
  /** The name/URI a client sees for an upstream key. */
  expose(server: string, type: CapabilityType, key: string): string;
  /** Best-effort parse of an exposed name/URI without a listing (cut names need one). */
  parse(type: CapabilityType, exposed: string): { server: string; key: string } | undefined;
}

const isUriType = (type: CapabilityType) => type === 'resource' || type === 'resource_template';

export const aggregatedNamespace: Namespace = {
  expose(server, type, key) {
    return isUriType(type) ? exposedUri(server, key) : exposedName(server, key);
  },
  parse(type, exposed) {
    if (isUriType(type)) {
      const parts = splitExposedUri(exposed);
      return parts === undefined ? undefined : { server: parts.server, key: parts.uri };
    }
    const parts = splitExposedName(exposed);
    return parts === undefined ? undefined : { server: parts.server, key: parts.name };
  },
};

export function passthroughNamespace(server: string): Namespace {
  return {
    expose: (_server, _type, key) => key,
    parse: (_type, exposed) => ({ server, key: exposed }),
  };
}
