import { createHash } from 'node:crypto';
import { canonicalJson } from '../domain/canonical-json.js';

/**
 * Reading loosely typed config values. Agents are forgiving about types (a port written
 * as a number in `env`), so these readers are too, and say what they dropped.
 */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function stringField(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return undefined;
}

export function stringList(object: JsonObject, key: string, notes: string[]): string[] {
  const value = object[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    notes.push(`"${key}" is not a list; ignored`);
    return [];
  }
  const items: string[] = [];
  for (const item of value) {
    const text = scalarText(item);
    if (text === undefined) notes.push(`an item of "${key}" is not text; ignored`);
    else items.push(text);
  }
  return items;
}

export function stringMap(
  object: JsonObject,
  key: string,
  notes: string[],
): Record<string, string> {
  const value = object[key];
  if (value === undefined) return {};
  if (!isObject(value)) {
    notes.push(`"${key}" is not a map; ignored`);
    return {};
  }
  const map: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) {
    const text = scalarText(item);
    if (text === undefined) notes.push(`${key} "${name}" is not text; ignored`);
    else map[name] = text;
  }
  return map;
}

/**
 * A hash of an entry, to recognise it later without keeping it: entries hold tokens,
 * and Coffer's state file must not.
 */
export function entryFingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

export function sameJson(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
