import type { ActivitySink, Clock, JsonObject, ToolPinRepository } from '../domain/ports.js';
import { definitionHash, pinnedDefinition, planPins, type ListedTool } from '../domain/tool-pin.js';

export interface ToolPinsDeps {
  readonly repository: ToolPinRepository;
  readonly activity: ActivitySink;
  readonly clock: Clock;
  /**
   * A change was recorded: every session drops its list of `server`, so a session that
   * listed before the change holds the tool back too, and its client relists.
   */
  readonly onChanged: (server: string) => void;
  /** Tools of `server` were pinned for the first time (the pin snapshot follows). */
  readonly onPinned?: (server: string) => void;
}

/** The action of the activity row a detected change writes (its accept is `tool.accept`). */
export const CHANGE_ACTION = 'tool.changed';

/**
 * The pin check of each loaded tool list (issue 20): pins tools the user allowed, records
 * each definition change once (one activity row per change, however many lists see it),
 * and says which tools are held back. One read of the server's pin hashes per list load;
 * the call path then only looks the key up in the loaded list.
 */
export class ToolPins {
  constructor(private readonly deps: ToolPinsDeps) {}

  async check(
    server: string,
    items: readonly { readonly key: string; readonly item: JsonObject }[],
    enabled: ReadonlyMap<string, boolean>,
  ): Promise<ReadonlySet<string>> {
    const tools: ListedTool[] = items.map(({ key, item }) => ({
      key,
      hash: definitionHash(item),
      definition: pinnedDefinition(item),
      enabled: enabled.get(key) ?? false,
    }));
    const { repository } = this.deps;
    const plan = planPins(tools, await repository.states(server));
    const held = new Set(plan.held);
    if (plan.pin.length > 0) {
      // A concurrent list may have pinned another definition first: compare with that one.
      const stored = await repository.pin(server, plan.pin);
      for (const tool of plan.pin) if (stored.get(tool.key) !== tool.hash) held.add(tool.key);
      this.deps.onPinned?.(server);
    }
    for (const key of plan.reverted) await repository.clearChanged(server, key);
    let recorded = false;
    for (const tool of plan.changed) {
      if (!(await repository.markChanged(server, tool))) continue;
      this.record(server, tool.key);
      recorded = true;
    }
    if (recorded) this.deps.onChanged(server);
    return held;
  }

  /**
   * The server's tools with a change waiting for review, read from the pin records alone:
   * what the last lists found, without listing again (a server that cannot list now).
   */
  async waiting(server: string): Promise<ReadonlySet<string>> {
    return new Set((await this.deps.repository.held(server)).map((tool) => tool.key));
  }

  private record(server: string, key: string): void {
    this.deps.activity.record({
      at: this.deps.clock.now().toISOString(),
      // Noticed by a list, which may serve many requests at once: no one request's trace.
      trace_id: null,
      session_id: null,
      client_name: null,
      client_version: null,
      server,
      capability_type: 'tool',
      capability_key: key,
      action: CHANGE_ACTION,
      duration_ms: null,
      outcome: 'error',
      error_code: 'TOOL_CHANGED',
    });
  }
}
