/**
 * The name among `names` that a mistyped `wanted` most likely meant: the fewest
 * single-character edits (insert, delete, replace), and at most a third of its length, so
 * that "write_fil" finds "write_file" and "nosuch" finds nothing. Undefined when nothing
 * is that close; the first of equally close names.
 */
export function closestName(wanted: string, names: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    if (Math.abs(name.length - wanted.length) > limit) continue;
    const distance = editDistance(wanted, name);
    if (distance <= limit && (best === undefined || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min(replace, previous[j]! + 1, row[j - 1]! + 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}
