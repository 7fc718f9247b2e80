import type { JsonObject, PinnedEntry, ToolPinRepository } from '../../../src/domain/ports.js';
import type { HeldTool, PinState } from '../../../src/domain/tool-pin.js';

interface Row {
  hash: string;
  definition: JsonObject;
  pending?: PinnedEntry;
}

/** Tool pins in memory, with the store's rules: a pin never moves but by accept. */
export class MemoryPins implements ToolPinRepository {
  readonly rows = new Map<string, Row>();

  private id = (server: string, key: string) => `${server}/${key}`;

  states(server: string): Promise<ReadonlyMap<string, PinState>> {
    const states = new Map<string, PinState>();
    for (const [id, row] of this.rows)
      if (id.startsWith(`${server}/`))
        states.set(id.slice(server.length + 1), {
          hash: row.hash,
          pending_hash: row.pending?.hash ?? null,
        });
    return Promise.resolve(states);
  }

  pin(server: string, entries: readonly PinnedEntry[]): Promise<ReadonlyMap<string, string>> {
    const stored = new Map<string, string>();
    for (const entry of entries) {
      const id = this.id(server, entry.key);
      if (!this.rows.has(id)) this.rows.set(id, { hash: entry.hash, definition: entry.definition });
      stored.set(entry.key, this.rows.get(id)?.hash ?? '');
    }
    return Promise.resolve(stored);
  }

  markChanged(server: string, entry: PinnedEntry): Promise<boolean> {
    const row = this.rows.get(this.id(server, entry.key));
    if (row === undefined || row.hash === entry.hash || row.pending?.hash === entry.hash)
      return Promise.resolve(false);
    row.pending = entry;
    return Promise.resolve(true);
  }

  clearChanged(server: string, key: string): Promise<void> {
    const row = this.rows.get(this.id(server, key));
    if (row !== undefined) delete row.pending;
    return Promise.resolve();
  }

  held(server: string): Promise<HeldTool[]> {
    const held: HeldTool[] = [];
    for (const [id, row] of this.rows)
      if (id.startsWith(`${server}/`) && row.pending !== undefined)
        held.push({
          key: row.pending.key,
          pinned: row.definition,
          pinned_at: '',
          changed: row.pending.definition,
          detected_at: '',
        });
    return Promise.resolve(held);
  }

  accept(server: string, key?: string): Promise<string[]> {
    const accepted: string[] = [];
    for (const [id, row] of this.rows) {
      if (!id.startsWith(`${server}/`) || row.pending === undefined) continue;
      if (key !== undefined && row.pending.key !== key) continue;
      accepted.push(row.pending.key);
      row.hash = row.pending.hash;
      row.definition = row.pending.definition;
      delete row.pending;
    }
    return Promise.resolve(accepted);
  }
}
