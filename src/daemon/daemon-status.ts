import type { DaemonSettings } from '../config/settings.js';
import type { ServerStates } from '../gateway/server-states.js';
import type { RegistrySnapshot } from './registry-snapshot.js';

export interface DaemonStatusSources {
  readonly settings: DaemonSettings;
  readonly registry: RegistrySnapshot;
  readonly states: ServerStates;
  /** Sessions open now. */
  readonly sessions: () => number;
  /** Coffer updated or rebuilt under this daemon: `coffer status` says to restart it. */
  readonly codeReplaced: () => boolean;
}

/** What the daemon adds to GET /api/v1/status: `coffer status` reads it. */
export function daemonStatus(sources: DaemonStatusSources): () => Record<string, unknown> {
  const { settings, registry, states } = sources;
  return () => ({
    sessions: sources.sessions(),
    code_replaced: sources.codeReplaced(),
    // null: results are never cut (COFFER_RESULT_BUDGET_TOKENS=off).
    result_budget_tokens: settings.resultBudgetTokens ?? null,
    result_ttl_ms: settings.resultTtlMs,
    block_credentials: settings.blockCredentials,
    servers: registry.latest().map((server) => ({
      name: server.name,
      enabled: server.enabled,
      state: states.status(server.name).state,
    })),
  });
}
