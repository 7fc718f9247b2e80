/**
 * MCP stdio framing, read side: one JSON-RPC message per line, `\n`-terminated (a `\r`
 * before it is tolerated). Splitting on the byte keeps multi-byte UTF-8 intact, since
 * 0x0A never occurs inside a UTF-8 sequence.
 */

/** Far beyond any real message; bounds what a broken peer can make a reader buffer. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

interface OverflowEvents {
  /** A line grew past the limit: it is dropped, reading resumes at the next newline. */
  readonly onOverflow: (bytes: number) => void;
}

/** Lines as text. */
export interface LineReaderEvents extends OverflowEvents {
  readonly onLine: (line: string) => void;
}

/** Lines as the bytes that came, undecoded: for a relay that passes most of them on as is. */
export interface ByteLineEvents extends OverflowEvents {
  readonly onBytes: (line: Buffer) => void;
}

const CR = 0x0d;

export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;

  constructor(
    private readonly events: LineReaderEvents | ByteLineEvents,
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
    const { pending } = this;
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = false;
    if (skipped) return;
    // One piece (the usual line, within one read) is passed on without a copy.
    const whole = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    const bytes = whole.at(-1) === CR ? whole.subarray(0, -1) : whole;
    if ('onBytes' in this.events) {
      if (!isBlank(bytes)) this.events.onBytes(bytes);
      return;
    }
    const line = bytes.toString('utf8');
    if (line.trim() !== '') this.events.onLine(line);
  }
}

/** Only JSON whitespace (a blank line between messages is not a message). */
function isBlank(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte !== 0x20 && byte !== 0x09 && byte !== CR) return false;
  return true;
}
