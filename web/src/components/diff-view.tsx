import type { DiffLine } from '../api/types.js';

const CLASS_OF: Record<DiffLine['op'], string> = { ' ': 'same', '+': 'add', '-': 'remove' };

/** A line diff, each line marked kept, added or removed: install previews and tool reviews. */
export function DiffView({ lines, label }: { lines: readonly DiffLine[]; label: string }) {
  return (
    <pre className="diff" aria-label={label}>
      {lines.map((line, index) => (
        <span key={index} className={`diff-line diff-${CLASS_OF[line.op]}`}>
          {line.op} {line.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}
