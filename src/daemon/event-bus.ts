import type { DaemonEvent, DaemonEventListener, DaemonEvents } from '../domain/ports.js';
import type { Logger } from '../observability/logger.js';

interface Subscriber {
  readonly listener: DaemonEventListener;
  readonly onClose: (() => void) | undefined;
}

/** Browser tabs each hold one stream; more than this is a leak, not a user. */
export const MAX_SUBSCRIBERS = 64;

/**
 * The daemon's in-memory DaemonEvents: API routes, the gateway's server states and the
 * activity sink emit; each open `/api/v1/events` stream listens. Synchronous fan-out is
 * enough: listeners only queue a write on their own stream.
 */
export class EventBus implements DaemonEvents {
  private readonly subscribers = new Set<Subscriber>();
  private closed = false;

  /**
   * `observer` sees every event too, as a part of the daemon rather than a stream: it is
   * never dropped for a newer subscriber, and it is called before them.
   */
  constructor(
    private readonly logger?: Logger,
    private readonly observer?: DaemonEventListener,
  ) {}

  emit(event: DaemonEvent): void {
    this.observer?.(event);
    for (const subscriber of this.subscribers) {
      try {
        subscriber.listener(event);
      } catch (error) {
        // One broken stream must not keep the event from the others, nor fail the emitter.
        this.logger?.warn({ err: error, event: event.type }, 'event listener failed');
      }
    }
  }

  subscribe(listener: DaemonEventListener, onClose?: () => void): () => void {
    if (this.closed) {
      onClose?.();
      return () => undefined;
    }
    if (this.subscribers.size >= MAX_SUBSCRIBERS) {
      // Oldest first: a forgotten tab gives way to the one the user is looking at.
      const oldest = this.subscribers.values().next().value;
      if (oldest !== undefined) this.drop(oldest);
    }
    const subscriber: Subscriber = { listener, onClose };
    this.subscribers.add(subscriber);
    return () => {
      this.subscribers.delete(subscriber);
    };
  }

  get size(): number {
    return this.subscribers.size;
  }

  /** Shutdown: ends every stream so the HTTP server can close without waiting for them. */
  close(): void {
    this.closed = true;
    for (const subscriber of [...this.subscribers]) this.drop(subscriber);
  }

  private drop(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
    try {
      subscriber.onClose?.();
    } catch (error) {
      this.logger?.warn({ err: error }, 'event stream close failed');
    }
  }
}
