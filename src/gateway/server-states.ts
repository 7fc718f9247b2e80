import type { CapabilityType } from '../domain/capability.js';
import type { Clock, ServerStatus } from '../domain/ports.js';
import type { CofferError } from '../domain/errors.js';

type Counts = { tools: number; prompts: number; resources: number };

interface Entry {
  lastError: ServerStatus['last_error'];
  counts: Counts | null;
  live: number;
  failedSinceSuccess: boolean;
}

const countField: Partial<Record<CapabilityType, keyof Counts>> = {
  tool: 'tools',
  prompt: 'prompts',
  resource: 'resources',
};

/**
 * What the daemon knows of each server's health, from every session and admin
 * request: shown by `coffer mcp list` and the UI. In memory only: it describes this
 * daemon's run, not a fact worth persisting.
 */
export class ServerStates {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: Clock) {}

  status(server: string): ServerStatus {
    const entry = this.entries.get(server);
    if (entry === undefined) return { state: 'idle', last_error: null, counts: null };
    const state = entry.failedSinceSuccess ? 'error' : entry.live > 0 ? 'running' : 'idle';
    return { state, last_error: entry.lastError, counts: entry.counts };
  }

  listed(server: string, type: CapabilityType, count: number): void {
    const entry = this.entry(server);
    entry.failedSinceSuccess = false;
    const field = countField[type];
    if (field === undefined) return;
    entry.counts = { ...(entry.counts ?? { tools: 0, prompts: 0, resources: 0 }), [field]: count };
  }

  failed(server: string, error: CofferError): void {
    const entry = this.entry(server);
    entry.failedSinceSuccess = true;
    entry.lastError = {
      code: error.code,
      message: error.message,
      at: this.clock.now().toISOString(),
    };
  }

  connected(server: string): void {
    const entry = this.entry(server);
    entry.live += 1;
    entry.failedSinceSuccess = false;
  }

  disconnected(server: string): void {
    const entry = this.entry(server);
    entry.live = Math.max(0, entry.live - 1);
  }

  forget(server: string): void {
    this.entries.delete(server);
  }

  private entry(server: string): Entry {
    let entry = this.entries.get(server);
    if (entry === undefined) {
      entry = { lastError: null, counts: null, live: 0, failedSinceSuccess: false };
      this.entries.set(server, entry);
    }
    return entry;
  }
}
