import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Listener = (message: JSONRPCMessage) => void;

/**
 * The notifications the stateless (2026-07-28) side of Coffer has for whoever listens:
 * every open `subscriptions/listen` request registers here and filters for itself. A
 * listener also names the task ids it follows, so a task's status is worked out only
 * while somebody wants it (task-status-feed.ts).
 */
export class ListenHub {
  private readonly listeners = new Map<Listener, ReadonlySet<string>>();

  subscribe(listener: Listener, taskIds: ReadonlySet<string> = new Set()): () => void {
    this.listeners.set(listener, taskIds);
    return () => this.listeners.delete(listener);
  }

  publish(message: JSONRPCMessage): Promise<void> {
    for (const listener of this.listeners.keys()) listener(message);
    return Promise.resolve();
  }

  /** Some open listen request named the task `id` in its `taskIds`. */
  followsTask(id: string): boolean {
    for (const taskIds of this.listeners.values()) if (taskIds.has(id)) return true;
    return false;
  }

  get size(): number {
    return this.listeners.size;
  }
}
