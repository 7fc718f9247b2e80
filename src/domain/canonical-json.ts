/**
 * Deterministic JSON: object keys sorted at every depth, bigint as text. Two values with
 * the same content give the same text however their keys were ordered, so the text can
 * be hashed (agent entry fingerprints, tool pins).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** The same order, indented: for people reading a diff. */
export function canonicalJsonLines(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2);
}

function sortKeys(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(object).sort()) sorted[key] = sortKeys(object[key]);
    return sorted;
  }
  return value;
}
