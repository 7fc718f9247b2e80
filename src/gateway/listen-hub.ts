import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Listener = (message: JSONRPCMessage) => void;

/**
 * The notifications the stateless (2026-07-28) side of Coffer has for whoever listens:
 * every open `subscriptions/listen` request registers here and filters for itself.
 */
export class ListenHub {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(message: JSONRPCMessage): Promise<void> {
    for (const listener of this.listeners) listener(message);
    return Promise.resolve();
  }

  get size(): number {
    return this.listeners.size;
  }
}
