/** What asks an upstream about one resource, by the URI the client sees. */
export type SubscriptionSender = (
  method: 'resources/subscribe' | 'resources/unsubscribe',
  uri: string,
) => Promise<unknown>;

/** The URIs one listener holds, and how it lets them go. */
export interface HeldResources {
  /** The URIs an upstream accepted the subscription for. */
  readonly uris: readonly string[];
  /** The listener went away: a URI nobody else holds is unsubscribed upstream. */
  readonly release: () => void;
}

interface Entry {
  holders: number;
  readonly subscribed: Promise<boolean>;
  /** The first subscription was answered. */
  settled: boolean;
}

/**
 * The resource subscriptions 2026-07-28 clients hold through `subscriptions/listen`
 * (`resourceSubscriptions`), on upstream connections every such client shares: the
 * first listener naming a URI subscribes it upstream (`resources/subscribe` to its
 * owner), the last one leaving unsubscribes it. Which listener hears an update is the
 * listen stream's filter (subscriptions-listen.ts): only those that named its URI.
 */
export class ResourceSubscriptions {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly send: SubscriptionSender) {}

  async hold(uris: readonly string[]): Promise<HeldResources> {
    const outcomes = await Promise.all(
      uris.map(async (uri) => [uri, await this.join(uri)] as const),
    );
    const held = outcomes.filter(([, ok]) => ok).map(([uri]) => uri);
    let released = false;
    return {
      uris: held,
      release: () => {
        if (released) return;
        released = true;
        for (const uri of held) this.leave(uri);
      },
    };
  }

  /**
   * An upstream lost what it was told (its connection ended, it was redefined): the held
   * URIs `belongs` picks are subscribed again, which connects it again. One still being
   * subscribed is left alone; a refusal now changes nothing for its listeners.
   */
  renew(belongs: (uri: string) => boolean): void {
    for (const [uri, entry] of this.entries)
      if (entry.settled && belongs(uri))
        void this.send('resources/subscribe', uri).catch(() => undefined);
  }

  /** How many URIs are subscribed upstream now. */
  get size(): number {
    return this.entries.size;
  }

  private join(uri: string): Promise<boolean> {
    const existing = this.entries.get(uri);
    if (existing !== undefined) {
      existing.holders++;
      return existing.subscribed;
    }
    const entry: Entry = {
      holders: 1,
      settled: false,
      // A refused subscription is forgotten, so the next listener asks again.
      subscribed: this.send('resources/subscribe', uri).then(
        () => {
          entry.settled = true;
          return true;
        },
        () => {
          if (this.entries.get(uri) === entry) this.entries.delete(uri);
          return false;
        },
      ),
    };
    this.entries.set(uri, entry);
    return entry.subscribed;
  }

  private leave(uri: string): void {
    const entry = this.entries.get(uri);
    if (entry === undefined || --entry.holders > 0) return;
    this.entries.delete(uri);
    void this.send('resources/unsubscribe', uri).catch(() => undefined);
  }
}
