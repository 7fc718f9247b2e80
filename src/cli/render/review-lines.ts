import type { DiffLine } from '../../domain/line-diff.js';
import type { Colors } from './colors.js';

/** One held-back tool as GET /servers/:name/reviews gives it. */
export interface ReviewRow {
  readonly key: string;
  readonly pinned_at: string;
  readonly detected_at: string;
  readonly diff: readonly DiffLine[];
}

/** Unchanged lines kept around each change: enough to see where it is. */
const CONTEXT = 2;

/** The diff with long unchanged stretches folded, as `git diff` shows a hunk. */
function folded(diff: readonly DiffLine[]): (DiffLine | undefined)[] {
  const near = (index: number) =>
    diff.slice(Math.max(0, index - CONTEXT), index + CONTEXT + 1).some((line) => line.op !== ' ');
  const out: (DiffLine | undefined)[] = [];
  diff.forEach((line, index) => {
    if (line.op !== ' ' || near(index)) out.push(line);
    else if (out.at(-1) !== undefined) out.push(undefined);
  });
  return out.at(-1) === undefined ? out.slice(0, -1) : out;
}

function diffLine(line: DiffLine | undefined, colors: Colors): string {
  if (line === undefined) return colors.dim('    …');
  const text = `  ${line.op} ${line.text}`;
  return line.op === '+' ? colors.green(text) : line.op === '-' ? colors.red(text) : text;
}

/** `coffer mcp review <server>`: each held-back tool, its dates and its diff. */
export function reviewLines(server: string, rows: readonly ReviewRow[], colors: Colors): string {
  if (rows.length === 0) return `No tool of "${server}" is held back: nothing to review.\n`;
  const lines = [
    `${rows.length} ${rows.length === 1 ? 'tool' : 'tools'} of "${server}" held back: the definition changed since you allowed it.`,
  ];
  for (const row of rows) {
    lines.push(
      '',
      colors.bold(`${row.key}`),
      `  allowed ${row.pinned_at}, changed ${row.detected_at}`,
    );
    lines.push(...folded(row.diff).map((line) => diffLine(line, colors)));
  }
  lines.push(
    '',
    `Accept with \`coffer mcp review ${server} --accept\` (or one: --accept --tool <name>).`,
  );
  return `${lines.join('\n')}\n`;
}
