import type { DiffLine } from './api/types.js';

/**
 * A line diff of two small texts (agent config files: tens of lines), by longest common
 * subsequence, for the preview of an install. `null` is "no file".
 */

function linesOf(text: string | null): string[] {
  if (text === null || text === '') return [];
  return text.replace(/\n$/, '').split('\n');
}

export function lineDiff(before: string | null, after: string | null): DiffLine[] {
  const a = linesOf(before);
  const b = linesOf(after);
  // lengths[i][j]: LCS of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () =>
    new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      lengths[i]![j] =
        a[i] === b[j]
          ? lengths[i + 1]![j + 1]! + 1
          : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i]! });
      i += 1;
      j += 1;
    } else if (j < b.length && (i === a.length || lengths[i]![j + 1]! >= lengths[i + 1]![j]!)) {
      out.push({ op: '+', text: b[j]! });
      j += 1;
    } else {
      out.push({ op: '-', text: a[i]! });
      i += 1;
    }
  }
  return out;
}
