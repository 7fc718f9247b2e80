/**
 * The resource subscriptions of a shared 2025 upstream (a server the user marked
 * `shared`). Its one session holds one subscription per URI, whatever the number of
 * Coffer sessions that asked: the first subscriber's `resources/subscribe` reaches the
 * server, the last one's `resources/unsubscribe` (or its lease's end) does too, and an
 * update for a URI goes to the sessions subscribed to it only.
 */
import type { JsonObject } from '../domain/ports.js';

/** Sends one request to the shared upstream. */
export type SubscriptionSend = (method: string, uri: string) => Promise<JsonObject>;

interface Subscribers<H> {
  readonly holders: Set<H>;
  /** The server's answer to the first subscribe; later subscribers get the same. */
  readonly answered: Promise<JsonObject>;
}

export class SharedSubscriptions<H> {
  private readonly byUri = new Map<string, Subscribers<H>>();

  constructor(private readonly send: SubscriptionSend) {}

  /** resources/subscribe for `holder`: sent upstream only for a URI nobody holds yet. */
  subscribe(uri: string, holder: H): Promise<JsonObject> {
    const held = this.byUri.get(uri);
    if (held !== undefined) {
      held.holders.add(holder);
      return held.answered;
    }
    const entry: Subscribers<H> = {
      holders: new Set([holder]),
      answered: this.send('resources/subscribe', uri),
    };
    this.byUri.set(uri, entry);
    // A refused subscription holds nothing: the next subscriber asks the server again.
    entry.answered.catch(() => {
      if (this.byUri.get(uri) === entry) this.byUri.delete(uri);
    });
    return entry.answered;
  }

  /** resources/unsubscribe for `holder`: sent upstream when it was the URI's last holder. */
  async unsubscribe(uri: string, holder: H): Promise<JsonObject> {
    const held = this.byUri.get(uri);
    if (held === undefined || !held.holders.delete(holder)) return {};
    if (held.holders.size > 0) return {};
    this.byUri.delete(uri);
    return this.send('resources/unsubscribe', uri);
  }

  /** A lease ended: what it alone held is unsubscribed upstream, errors ignored. */
  release(holder: H): void {
    for (const [uri, held] of [...this.byUri]) {
      if (held.holders.has(holder)) void this.unsubscribe(uri, holder).catch(() => undefined);
    }
  }

  /** Who gets `notifications/resources/updated` for `uri`. */
  holdersOf(uri: string): readonly H[] {
    return [...(this.byUri.get(uri)?.holders ?? [])];
  }
}
