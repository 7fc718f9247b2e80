import type { JsonObject, UpstreamPeer } from '../domain/ports.js';
import { UpstreamRpcError } from '../domain/ports.js';
import { LIST_CHANGED } from './capability-kinds.js';
import type { Namespace } from './namespace.js';
import type { DownstreamNotifier } from './router/downstream-notifier.js';
import { firstUndeclared, neededCapabilities } from './input-capabilities.js';
import type { DownstreamRequests } from './router/downstream-requests.js';
import type { RequestId } from './router/method-table.js';

const listChanged = new Set(LIST_CHANGED);

/** The client of one session, as its upstreams reach it. */
export interface DownstreamClient {
  readonly requests: DownstreamRequests;
  readonly notifier: DownstreamNotifier;
  /**
   * What the client declared at initialize (a stateless client: in the envelope of
   * request `related`, the one a question belongs to).
   */
  readonly capabilities: (related?: RequestId) => JsonObject | undefined;
  /**
   * An upstream asked for what the client did not declare (`sampling`, `elicitation.url`,
   * …): it is told so (`refusedQuestion`), or the error returned here (the question
   * belongs to no request that can be told).
   */
  readonly undeclared?: (
    method: string,
    capability: string,
    related?: RequestId,
  ) => UpstreamRpcError | undefined;
}

export interface PeerHooks {
  /** An upstream's list changed: drop what the session cached of it. */
  readonly invalidate: (server: string) => void;
  /** `notifications/message` goes to the upstream's log file, not to the client. */
  readonly log: (server: string, params: JsonObject | undefined) => void;
  /** The downstream request a question from this upstream most likely belongs to. */
  readonly relatedRequest: (server: string) => RequestId | undefined;
}

/**
 * The downstream client as one upstream sees it: requests go to the client of THIS
 * session only, and only when the client declared the capability; notifications are
 * relayed with URIs exposed.
 */
export function createUpstreamPeer(
  server: string,
  client: DownstreamClient,
  namespace: Namespace,
  hooks: PeerHooks,
): UpstreamPeer {
  return {
    async request(method, params, signal) {
      const relatedRequestId = hooks.relatedRequest(server);
      const needs = neededCapabilities(method, params);
      const missing =
        needs === undefined
          ? undefined
          : firstUndeclared(client.capabilities(relatedRequestId), needs);
      if (needs === undefined || missing !== undefined) {
        const refusal =
          missing === undefined
            ? undefined
            : client.undeclared?.(method, missing, relatedRequestId);
        throw refusal ?? refusedQuestion(method, missing);
      }
      return client.requests.request(method, params, {
        signal,
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
      client.notifier.notify(method, relayed);
    },
  };
}

/**
 * What an upstream hears for a question its client cannot answer, as an SDK client would
 * answer it: "method not found" without the capability, "invalid params" for a mode or
 * feature the client left out (a URL-mode elicitation to a form-only client).
 */
function refusedQuestion(method: string, missing: string | undefined): UpstreamRpcError {
  if (missing === undefined || !missing.includes('.'))
    return new UpstreamRpcError(-32601, `Method not found: ${method}`);
  return new UpstreamRpcError(
    -32602,
    `The client did not declare ${missing}, which this ${method} needs`,
  );
}
