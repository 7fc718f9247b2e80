const NEWLINE = 0x0a;

export interface LineReaderOptions {
  /** Longest line kept, in bytes; a longer one is dropped whole and reported. */
  readonly maxBytes: number;
  readonly onLine: (line: Buffer) => void;
  readonly onTooLarge: () => void;
}

/**
 * Newline-delimited framing of a byte stream (the shim's socket channel). Splits on the
 * byte 0x0A, so a UTF-8 character cut between two chunks is never decoded in halves.
 * A line over the limit is skipped up to its newline, buffering nothing of it, so a
 * hostile client cannot make the daemon hold more than `maxBytes` per connection.
 */
export class LineReader {
  private chunks: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(private readonly options: LineReaderOptions) {}

  feed(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.take(chunk.subarray(start, end));
      this.endLine();
      start = end + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    this.size += part.length;
    if (this.size > this.options.maxBytes) {
      this.skipping = true;
      this.chunks = [];
      this.options.onTooLarge();
      return;
    }
    this.chunks.push(part);
  }

  private endLine(): void {
    const line = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const skipped = this.skipping;
    this.chunks = [];
    this.size = 0;
    this.skipping = false;
    if (!skipped && line.length > 0) this.options.onLine(line);
  }
}
