/**
 * One session's resource subscriptions on a shared modern (2026-07-28) upstream. That
 * era has no resources/subscribe: a client names the URIs it wants updates for in a
 * `subscriptions/listen` request. Coffer opens one listen per subscribed URI for the
 * session (so unsubscribing is closing that stream, and no session's set ever changes
 * another's), and what the stream carries goes to that session only.
 */
import { UpstreamRpcError, type JsonObject } from '../domain/ports.js';
import { isObject } from './jsonrpc-envelope.js';
import type { ListenStream } from './listen-streams.js';

interface Held {
  readonly stream: ListenStream;
  /** Settles when the server acknowledged the stream naming the URI, or refused it. */
  readonly ready: Promise<JsonObject>;
}

export class ResourceListens {
  private readonly byUri = new Map<string, Held>();

  constructor(
    private readonly server: string,
    private readonly capabilities: () => JsonObject,
    /** Opens a listen naming `uri` whose notifications reach this session. */
    private readonly open: (uri: string) => ListenStream,
  ) {}

  /** resources/subscribe, answered as a 2025 server would: `{}`, or an error. */
  subscribe(uri: string): Promise<JsonObject> {
    const held = this.byUri.get(uri);
    if (held !== undefined) return held.ready;
    const resources = this.capabilities()['resources'];
    if (!isObject(resources) || resources['subscribe'] !== true)
      return Promise.reject(
        new UpstreamRpcError(-32601, `${this.server} does not offer resource subscriptions`),
      );
    const stream = this.open(uri);
    const ready = stream.acknowledged.then((honored) => {
      const named = honored['resourceSubscriptions'];
      if (Array.isArray(named) && named.includes(uri)) return {};
      throw new UpstreamRpcError(
        -32602,
        `${this.server} did not accept a subscription to ${uri}: check that the resource exists`,
      );
    });
    ready.catch(() => this.forget(uri, stream));
    this.byUri.set(uri, { stream, ready });
    return ready;
  }

  /** resources/unsubscribe: closes the URI's stream; unknown URIs are fine, as in 2025. */
  unsubscribe(uri: string): JsonObject {
    const held = this.byUri.get(uri);
    if (held !== undefined) this.forget(uri, held.stream);
    return {};
  }

  /** The session let go of the upstream: every stream it held closes. */
  closeAll(): void {
    for (const [uri, held] of this.byUri) this.forget(uri, held.stream);
  }

  private forget(uri: string, stream: ListenStream): void {
    if (this.byUri.get(uri)?.stream === stream) this.byUri.delete(uri);
    stream.close();
  }
}
