import type { AgentDefinition } from './types.js';

/**
 * Keys of an agent's entry that say how the agent treats a server, not what the server
 * is: Cline's `autoApprove` (tools it runs without asking), Gemini CLI's `trust` and
 * `description`, a timeout no longer than the agent's default. An import does not carry
 * them over; `install --replace` may still remove an entry whose only leftovers are
 * these, since losing them changes nothing the server does (the agent asks before a call
 * again, waits at least as long). Conservative: a key stays off the list when unsure, and
 * a timeout longer than the default keeps its entry, since through Coffer the agent would
 * give up sooner. Each agent's list is in its catalog file (docs/AGENTS.md).
 */
export type HarmlessKeys = Readonly<Record<string, (value: unknown) => boolean>>;

export const always = (): boolean => true;

/** A number no greater than `limit`: a timeout within the agent's own default. */
export const atMost =
  (limit: number) =>
  (value: unknown): boolean =>
    typeof value === 'number' && value <= limit;

/** The keys of `keys` that matter: not on the agent's list, or with a value the list refuses. */
export function keysThatMatter(
  agent: AgentDefinition,
  raw: unknown,
  keys: readonly string[],
): string[] {
  const entry = (raw ?? {}) as Readonly<Record<string, unknown>>;
  return keys.filter((key) => agent.harmlessKeys?.[key]?.(entry[key]) !== true);
}
