/** Facts about a text file's layout that edits must keep: line endings and indentation. */

export function usesCrlf(text: string): boolean {
  return text.includes('\r\n');
}

/** 1-based line and column of an offset, as editors show them. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  const last = lines[lines.length - 1] ?? '';
  return { line: lines.length, column: last.length + 1 };
}

export interface Indentation {
  readonly insertSpaces: boolean;
  readonly tabSize: number;
}

/** The indentation unit of the first indented line; two spaces for a flat or empty file. */
export function detectIndentation(text: string): Indentation {
  for (const line of text.split(/\r?\n/)) {
    const match = /^([ \t]+)\S/.exec(line);
    const indent = match?.[1];
    if (indent === undefined) continue;
    if (indent.startsWith('\t')) return { insertSpaces: false, tabSize: 1 };
    return { insertSpaces: true, tabSize: Math.min(indent.length, 8) };
  }
  return { insertSpaces: true, tabSize: 2 };
}
