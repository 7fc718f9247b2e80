import type { ServerPatch } from '../domain/ports.js';
import { serverDefinitionSchema, type ServerRecord } from '../domain/server-definition.js';
import { parseInput } from './parse-request.js';
import type { ServerPatchInput } from './request-schemas.js';

const CLEARABLE = ['command', 'cwd', 'url'] as const;

/**
 * Turns a validated PATCH body into the store's patch, whose rule is an object spread:
 * an absent key keeps the stored value, a key present with `undefined` clears it. JSON
 * has no undefined, so the wire says `null`.
 */
export function toServerPatch(patch: ServerPatchInput): ServerPatch {
  const changes: ServerPatch = {};
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'name' || value === undefined) continue;
    Object.assign(changes, { [key]: value });
  }
  for (const key of CLEARABLE) {
    if (patch[key] === null) changes[key] = undefined;
  }
  return changes;
}

/**
 * The cross-field rules (stdio needs a command, http a url) hold for the result, not
 * for the patch alone: check the merged definition before anything is written, so the
 * caller gets the API's one-line error rather than the store's.
 */
export function checkPatched(existing: ServerRecord, changes: ServerPatch): void {
  const merged: Record<string, unknown> = { ...existing, ...changes };
  for (const key of ['id', 'created_at', 'updated_at']) delete merged[key];
  parseInput(serverDefinitionSchema, merged);
}
