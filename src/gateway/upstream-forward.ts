import type { JsonObject, UpstreamRequestOptions } from '../domain/ports.js';
import type { ServerRecord } from '../domain/server-definition.js';
import type { TraceContext } from '../observability/trace-context.js';
import type { Caller } from './call-audit.js';
import { breaksConnection, wasNotDelivered } from './connection-failures.js';
import type { InflightRequests } from './inflight-requests.js';
import type { UpstreamPool } from './upstream-pool.js';

/**
 * Options of one relayed request: the upstream options plus the downstream request's id,
 * span and caller (for the activity row; absent for requests Coffer makes itself).
 */
export type RoutedRequestOptions = UpstreamRequestOptions & {
  readonly requestId?: string | number | undefined;
  readonly trace?: TraceContext | undefined;
  readonly caller?: Caller | undefined;
};

/**
 * Sends one request to the session's connection to an upstream. While it waits, the
 * downstream id is the upstream's "current call" (InflightRequests), so a question the
 * upstream asks meanwhile rides on that call's stream.
 */
export class UpstreamForward {
  constructor(
    private readonly pool: UpstreamPool,
    private readonly inflight: InflightRequests,
  ) {}

  async forward(
    server: ServerRecord,
    method: string,
    params: JsonObject,
    options: RoutedRequestOptions,
  ): Promise<JsonObject> {
    const end =
      options.requestId === undefined
        ? undefined
        : this.inflight.begin(server.name, options.requestId);
    try {
      return await this.send(server, method, params, options, true);
    } finally {
      end?.();
    }
  }

  /**
   * One attempt on the session's connection. A broken connection is dropped so the next
   * request gets a fresh one (ADR-004 update). The request is sent again only when the
   * upstream refused it unread (a 404 for a session it forgot), and only once: any other
   * failure may have reached the upstream, and a call is never replayed silently.
   */
  private async send(
    server: ServerRecord,
    method: string,
    params: JsonObject,
    options: RoutedRequestOptions,
    mayResend: boolean,
  ): Promise<JsonObject> {
    const connection = await this.pool.get(server);
    try {
      return await connection.request(method, params, upstreamOptionsOf(options));
    } catch (error) {
      if (!breaksConnection(error)) throw error;
      await this.pool.evict(server.name, connection);
      if (!mayResend || !wasNotDelivered(error) || options.signal?.aborted === true) throw error;
      return this.send(server, method, params, options, false);
    }
  }
}

/**
 * The upstream sees the signal, timeout and progress, not the downstream id. One shape for
 * every call (absent fields undefined, no spreads): this runs on each relayed request.
 */
function upstreamOptionsOf(options: RoutedRequestOptions): UpstreamRequestOptions {
  const { signal, timeoutMs, onProgress } = options;
  return { signal, timeoutMs, onProgress };
}
