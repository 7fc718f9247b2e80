import { CofferError } from '../domain/errors.js';
import type { ServerDefinition } from '../domain/server-definition.js';

/** Far above what one user's agents need, low enough to stop a runaway client. */
export const DEFAULT_MAX_PROCESSES_PER_SERVER = 64;

/** Gives a slot back; safe to call more than once. */
export type ReleaseSlot = () => void;

/**
 * Caps the live upstream processes of each server across every session and the admin
 * catalog: a leaking client (a new session per call, never closed) must not fork
 * thousands of children. A connection takes a slot before it spawns and gives it back
 * when it closes. Remote (HTTP, SSE) servers spawn nothing and take no slot.
 */
export class ProcessSlots {
  private readonly taken = new Map<string, number>();

  constructor(readonly maxPerServer: number = DEFAULT_MAX_PROCESSES_PER_SERVER) {}

  acquire(definition: ServerDefinition): ReleaseSlot {
    if (definition.transport !== 'stdio') return () => undefined;
    const server = definition.name;
    const taken = this.inUse(server);
    if (taken >= this.maxPerServer) throw this.limitReached(server);
    this.taken.set(server, taken + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.inUse(server) - 1;
      if (left > 0) this.taken.set(server, left);
      else this.taken.delete(server);
    };
  }

  inUse(server: string): number {
    return this.taken.get(server) ?? 0;
  }

  private limitReached(server: string): CofferError {
    return new CofferError(
      'PROCESS_LIMIT_REACHED',
      `Server "${server}" already runs ${this.maxPerServer} processes, Coffer's limit per server`,
      {
        hint:
          'close agent sessions you no longer use (idle ones close after COFFER_SESSION_IDLE_MS), ' +
          'or raise COFFER_MAX_PROCESSES_PER_SERVER and restart the daemon',
        data: { server, limit: this.maxPerServer },
      },
    );
  }
}
