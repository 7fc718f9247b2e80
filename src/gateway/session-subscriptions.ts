import { splitExposedUri } from '../domain/naming.js';
import type { JsonObject } from '../domain/ports.js';
import type { SessionScope } from './session.js';

/** What resources/subscribe and resources/unsubscribe aim at, for the relay. */
export const RESOURCE_TARGET = { type: 'resource', field: 'uri' } as const;

export interface SessionSubscriptionsOptions {
  /** Subscribes `uri` (as the client sees it) again, through the session's relay. */
  readonly resubscribe: (uri: string) => Promise<unknown>;
  /** A renewal the server refused: the URI is let go, and the daemon log says why. */
  readonly dropped: (uri: string, error: unknown) => void;
}

/**
 * The resources a 2025 session's client subscribed to. The upstream connection is what
 * holds them: when it ends without the session closing it (a crash, a redefinition), they
 * are gone without a word to the client, which would wait for updates forever. So Coffer
 * subscribes them again, which connects the server again (after the pool's backoff). A
 * URI the server refuses then (the resource is gone, the server was disabled or removed)
 * is let go and logged; the client is told nothing false.
 */
export class SessionSubscriptions {
  private readonly uris = new Set<string>();

  constructor(private readonly options: SessionSubscriptionsOptions) {}

  /** The relayed resources/subscribe; the URI is held once the server accepted it. */
  async subscribe(uri: string, relayed: Promise<JsonObject>): Promise<JsonObject> {
    const result = await relayed;
    this.uris.add(uri);
    return result;
  }

  /** resources/unsubscribe: not renewed any more, whatever the server answers. */
  unsubscribe(uri: string, relayed: Promise<JsonObject>): Promise<JsonObject> {
    this.uris.delete(uri);
    return relayed;
  }

  /** Subscribes again the held URIs `belongs` picks (its server's connection ended). */
  renew(belongs: (uri: string) => boolean): void {
    for (const uri of this.uris) {
      if (!belongs(uri)) continue;
      this.options.resubscribe(uri).catch((error: unknown) => {
        this.uris.delete(uri);
        this.options.dropped(uri, error);
      });
    }
  }

  get held(): readonly string[] {
    return [...this.uris];
  }
}

/** Whether a URI as the scope's clients see it is one of `server`'s. */
export function ownedBy(scope: SessionScope, server: string): (uri: string) => boolean {
  if (scope.kind === 'single') return () => scope.server === server;
  return (uri) => splitExposedUri(uri)?.server === server;
}
