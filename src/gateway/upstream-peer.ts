import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { JsonObject, UpstreamPeer } from '../domain/ports.js';
import { UpstreamRpcError } from '../domain/ports.js';
import type { Namespace } from './namespace.js';

const looseResult = z.looseObject({});

/** Server→client requests and the client capability each needs. */
const requiredCapability: Readonly<Record<string, string>> = {
  'roots/list': 'roots',
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
};

const listChanged = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
]);

export interface PeerHooks {
  /** An upstream's list changed: drop what the session cached of it. */
  readonly invalidate: (server: string) => void;
  /** `notifications/message` goes to the upstream's log file, not to the client. */
  readonly log: (server: string, params: JsonObject | undefined) => void;
  /** The downstream request a question from this upstream most likely belongs to. */
  readonly relatedRequest: (server: string) => string | number | undefined;
}

/**
 * The downstream client as one upstream sees it: requests go to the client of THIS
 * session only, and only when the client declared the capability; notifications are
 * relayed with URIs exposed.
 */
export function createUpstreamPeer(
  server: string,
  downstream: Server,
  namespace: Namespace,
  hooks: PeerHooks,
): UpstreamPeer {
  return {
    async request(method, params, signal) {
      const capability = requiredCapability[method];
      const declared = downstream.getClientCapabilities() as JsonObject | undefined;
      if (capability === undefined || declared?.[capability] === undefined) {
        throw new UpstreamRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
      }
      const request = params === undefined ? { method } : { method, params };
      const relatedRequestId = hooks.relatedRequest(server);
      return downstream.request(request, looseResult, {
        signal,
        timeout: 2 ** 31 - 1,
        ...(relatedRequestId === undefined ? {} : { relatedRequestId }),
      });
    },
    notify(method, params) {
      if (method === 'notifications/message') return hooks.log(server, params);
      if (listChanged.has(method)) hooks.invalidate(server);
      const relayed =
        method === 'notifications/resources/updated' && typeof params?.['uri'] === 'string'
          ? { ...params, uri: namespace.expose(server, 'resource', params['uri']) }
          : params;
      void downstream
        .notification(relayed === undefined ? { method } : { method, params: relayed })
        .catch(() => undefined);
    },
  };
}
