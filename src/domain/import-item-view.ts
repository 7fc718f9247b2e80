import type { AgentImportItem } from './ports.js';

/** What happened to one entry of an agent import; `planned` before the plan ran. */
export type ImportOutcome =
  | { readonly kind: 'planned' }
  | { readonly kind: 'added'; readonly pending: readonly string[] }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * One entry as the REST API answers it and `coffer agents import --json` prints it: what
 * it is, what happened, and its secrets by name only (values never leave).
 */
export function importItemView(item: AgentImportItem, outcome: ImportOutcome) {
  return {
    original: item.original,
    server: item.server,
    action: item.action,
    ...(item.reason === undefined ? {} : { reason: item.reason }),
    outcome: outcome.kind,
    ...(outcome.kind === 'failed' ? { error: outcome.message } : {}),
    ...(outcome.kind === 'added' ? { secrets_pending: outcome.pending } : {}),
    ...(item.definition === undefined ? {} : { definition: item.definition }),
    secrets: item.secrets.map((secret) => ({ kind: secret.kind, name: secret.name })),
    notes: item.notes,
  };
}

export type ImportItemView = ReturnType<typeof importItemView>;

/**
 * What a run of an import leaves on record (so `install --replace` takes those entries out
 * of the agent file): the servers it added, with the secrets still pending, and the
 * entries Coffer already served (`same`), which it did not add.
 */
export function recordedImports<T extends { readonly action: string }>(
  results: readonly (readonly [T, ImportOutcome])[],
): { readonly item: T; readonly pending: readonly string[] }[] {
  return results.flatMap(([item, outcome]) => {
    if (outcome.kind === 'added') return [{ item, pending: outcome.pending }];
    return item.action === 'same' ? [{ item, pending: [] }] : [];
  });
}
