/**
 * One session's use of a shared upstream connection (src/upstream/shared-upstreams.ts).
 * It relays none of its client's notifications (the connection gives progress tokens of
 * its own, so two sessions' tokens never meet there).
 * On a modern one it stamps each request with THIS session's client capabilities
 * (2026-07-28 declares them per request, not per connection), answers input-required
 * results by asking this session's client, and returns results in the 2025 shape. On a
 * 2025 one (a server the user marked `shared`) requests go as they are, and resource
 * subscriptions are counted across sessions (src/upstream/shared-subscriptions.ts).
 * Closing it releases the session's hold; the connection closes when the last hold is
 * released.
 */
import { NEVER_CANCELLED } from '../domain/cancel-signal.js';
import type {
  JsonObject,
  UpstreamConnectContext,
  UpstreamConnection,
  UpstreamRequestOptions,
} from '../domain/ports.js';
import { answerInputRequired } from './input-required.js';
import type { JsonRpcUpstreamConnection } from './jsonrpc-upstream-connection.js';
import { completeResult } from './modern-results.js';
import { withEnvelope } from './protocol-era.js';
import { ResourceListens } from './resource-listens.js';
import type { SharedSubscriptions } from './shared-subscriptions.js';

export class UpstreamLease implements UpstreamConnection {
  readonly shared = true;
  readonly closed: Promise<void>;
  private released = false;
  private witness = false;
  private markReleased!: () => void;
  /** This session's resource subscriptions, as listen streams of its own. */
  private readonly resources: ResourceListens;

  constructor(
    private readonly connection: JsonRpcUpstreamConnection,
    private readonly context: UpstreamConnectContext,
    private readonly clientInfo: { name: string; version: string },
    private readonly release: (lease: UpstreamLease) => void,
    /** A 2025 connection's subscriptions, held by every lease of it. */
    private readonly subscriptions: SharedSubscriptions<UpstreamLease>,
  ) {
    const releasedNow = new Promise<void>((resolve) => (this.markReleased = resolve));
    this.closed = Promise.race([releasedNow, connection.closed]);
    this.resources = new ResourceListens(
      connection.server,
      () => connection.serverCapabilities,
      (uri) =>
        connection.listen(
          withEnvelope({ notifications: { resourceSubscriptions: [uri] } }, this.envelope()),
          (method, params) => context.peer.notify(method, params),
        ),
    );
  }

  get server(): string {
    return this.connection.server;
  }

  get serverCapabilities(): JsonObject {
    return this.connection.serverCapabilities;
  }

  get protocolVersion(): string {
    return this.connection.protocolVersion;
  }

  get instructions(): string | undefined {
    return this.connection.instructions;
  }

  get reportsEnd(): boolean {
    return this.witness;
  }

  /** This lease reports the shared connection's end (src/upstream/shared-upstreams.ts). */
  witnessEnd(): void {
    this.witness = true;
  }

  get peer() {
    return this.context.peer;
  }

  async request(
    method: string,
    params: JsonObject | undefined,
    options: UpstreamRequestOptions = {},
  ): Promise<JsonObject> {
    if (this.connection.era === 'legacy') return this.relayLegacy(method, params, options);
    const uri = params?.['uri'];
    if (method === 'resources/subscribe' && typeof uri === 'string')
      return this.resources.subscribe(uri);
    if (method === 'resources/unsubscribe' && typeof uri === 'string')
      return this.resources.unsubscribe(uri);
    const stamped = withEnvelope(params, this.envelope());
    const send = (sent: JsonObject) => this.connection.request(method, sent, options);
    const first = await send(stamped);
    const final = await answerInputRequired(first, stamped, {
      server: this.server,
      peer: this.context.peer,
      signal: options.signal ?? NEVER_CANCELLED,
      retry: send,
    });
    return completeResult(final);
  }

  /**
   * A client's notifications are not relayed: on a shared connection they would reach
   * the server on every session's behalf (and a modern server keeps no session to hold
   * them). A cancellation still reaches it: the request's signal sends it, by the id the
   * connection gave that request.
   */
  notify(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (!this.released) {
      this.released = true;
      this.resources.closeAll();
      this.subscriptions.release(this);
      this.markReleased();
      this.release(this);
    }
    return Promise.resolve();
  }

  /**
   * A shared 2025 server's requests go as they are, its `logging/setLevel` too: the level
   * then holds for every session (the user chose one server for all of them).
   */
  private relayLegacy(
    method: string,
    params: JsonObject | undefined,
    options: UpstreamRequestOptions,
  ): Promise<JsonObject> {
    const uri = params?.['uri'];
    if (method === 'resources/subscribe' && typeof uri === 'string')
      return this.subscriptions.subscribe(uri, this);
    if (method === 'resources/unsubscribe' && typeof uri === 'string')
      return this.subscriptions.unsubscribe(uri, this);
    return this.connection.request(method, params, options);
  }

  /** 2026-07-28 declares the client per request: this session's capabilities and Coffer. */
  private envelope() {
    return { clientCapabilities: this.context.clientCapabilities, clientInfo: this.clientInfo };
  }
}
