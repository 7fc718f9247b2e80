import { NAMESPACE_SEPARATOR } from './naming.js';

/**
 * The task ids Coffer gives clients (MCP 2025-11-25 tasks, docs/TASKS.md). An upstream's
 * own task id never reaches a client: Coffer mints `<server>__<128 random bits, hex>`,
 * so an id names its server and cannot be guessed, and maps it back itself.
 */

/** `_meta` key that ties a message to a task (requests, results, notifications). */
export const RELATED_TASK_KEY = 'io.modelcontextprotocol/related-task';

/** Bytes of entropy in a minted id: the spec asks for ids nobody can guess. */
export const TASK_ID_ENTROPY_BYTES = 16;

/** A task id for `server`, from `entropy` (hex of TASK_ID_ENTROPY_BYTES random bytes). */
export function mintTaskId(server: string, entropy: string): string {
  if (!/^[0-9a-f]{32}$/.test(entropy)) throw new Error('task id entropy must be 32 hex digits');
  return `${server}${NAMESPACE_SEPARATOR}${entropy}`;
}

/** The server a minted id names; undefined for anything Coffer did not mint. */
export function serverOfTaskId(id: string): string | undefined {
  const at = id.indexOf(NAMESPACE_SEPARATOR);
  if (at <= 0) return undefined;
  const rest = id.slice(at + NAMESPACE_SEPARATOR.length);
  return /^[0-9a-f]{32}$/.test(rest) ? id.slice(0, at) : undefined;
}

/**
 * When Coffer stops holding a task: its ttl from creation, capped, since a ttl of
 * `null` (unlimited) or an oversized one must not keep an upstream process forever.
 */
export function taskHoldUntil(createdMs: number, ttl: unknown, maxHoldMs: number): number {
  const wanted = typeof ttl === 'number' && Number.isFinite(ttl) && ttl >= 0 ? ttl : maxHoldMs;
  return createdMs + Math.min(wanted, maxHoldMs);
}
