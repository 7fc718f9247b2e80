/**
 * A line diff of two small texts (a tool's definition as indented JSON: tens of lines),
 * by longest common subsequence. The API sends it ready-made, so the CLI and the UI show
 * the same diff of a held-back tool.
 */
export interface DiffLine {
  readonly op: ' ' | '+' | '-';
  readonly text: string;
}

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  // lengths[i * width + j]: the LCS of a[i..] and b[j..].
  const width = b.length + 1;
  const lengths = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number): number => lengths[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      lengths[i * width + j] =
        a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ op: ' ', text: a[i] ?? '' });
      i += 1;
      j += 1;
    } else if (i < a.length && (j === b.length || at(i + 1, j) >= at(i, j + 1))) {
      // Removed before added, as a reader expects "was, now is".
      out.push({ op: '-', text: a[i] ?? '' });
      i += 1;
    } else {
      out.push({ op: '+', text: b[j] ?? '' });
      j += 1;
    }
  }
  return out;
}
