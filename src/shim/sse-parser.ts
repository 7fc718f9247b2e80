/**
 * An incremental parser for `text/event-stream` (WHATWG HTML, "server-sent events"), fed
 * raw chunks as they come off the socket. Chunks may split lines, CRLF pairs and UTF-8
 * sequences anywhere; comments (the SDK's `: keepalive`) are skipped.
 */

export interface SseEvent {
  readonly event: string;
  readonly data: string;
  readonly id: string | undefined;
}

export class SseParser {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;

  constructor(private readonly onEvent: (event: SseEvent) => void) {}

  push(chunk: Uint8Array): void {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    this.drainLines(false);
  }

  /** The stream ended: a last line without its terminator still counts, an unfinished event does not. */
  end(): void {
    this.buffer += this.decoder.decode();
    this.drainLines(true);
  }

  private drainLines(final: boolean): void {
    let start = 0;
    for (;;) {
      const cr = this.buffer.indexOf('\r', start);
      const lf = this.buffer.indexOf('\n', start);
      if (cr === -1 && lf === -1) break;
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      // A CR at the very end may be the first half of a CRLF still in flight.
      if (end === cr && end === this.buffer.length - 1 && !final) break;
      this.line(this.buffer.slice(start, end));
      start = end === cr && this.buffer[end + 1] === '\n' ? end + 2 : end + 1;
    }
    this.buffer = this.buffer.slice(start);
    if (final && this.buffer !== '') {
      this.line(this.buffer);
      this.buffer = '';
    }
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }

  private dispatch(): void {
    if (this.data.length > 0) {
      this.onEvent({ event: this.event || 'message', data: this.data.join('\n'), id: this.id });
    }
    this.data = [];
    this.event = '';
  }
}
