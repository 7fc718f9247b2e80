/**
 * MCP stdio framing, read side: one JSON-RPC message per line, `\n`-terminated (a `\r`
 * before it is tolerated). Splitting on the byte keeps multi-byte UTF-8 intact, since
 * 0x0A never occurs inside a UTF-8 sequence.
 */

/** Far beyond any real message; bounds what a broken peer can make a reader buffer. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface LineReaderEvents {
  readonly onLine: (line: string) => void;
  /** A line grew past the limit: it is dropped, reading resumes at the next newline. */
  readonly onOverflow: (bytes: number) => void;
}

export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;

  constructor(
    private readonly events: LineReaderEvents,
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, newline));
      this.finishLine();
      start = newline + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  private take(piece: Buffer): void {
    if (this.skipping || piece.length === 0) return;
    this.pendingBytes += piece.length;
    if (this.pendingBytes > this.maxBytes) {
      this.events.onOverflow(this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      return;
    }
    this.pending.push(piece);
  }

  private finishLine(): void {
    const skipped = this.skipping;
    const text = Buffer.concat(this.pending).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = false;
    if (skipped) return;
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim() !== '') this.events.onLine(line);
  }
}
