import { buildSecretMatcher, type SecretMatcher } from '../domain/secret-scan.js';

/** A line longer than this (no newline yet) is written in parts, a tail kept back. */
const MAX_PENDING_BYTES = 64 * 1024;

/** Where a server's stderr goes, and its end (which writes what is left of the last line). */
export interface StderrSink {
  write(chunk: Buffer): void;
  end(): void;
}

/**
 * A stdio server's stderr on its way to logs/upstream-<name>.log, with the secrets Coffer
 * gave it (its env from the secret store, known at launch) replaced by
 * `[redacted: secret <NAME>]`: a server that prints its own token as it starts, or in a
 * stack trace, would leave it in that file. Redacted per line, since a pipe cuts its
 * chunks anywhere, a value included; a line without a secret is written as its bytes
 * came. With no secret to look for, chunks pass straight through.
 */
export function redactingStderr(
  server: string,
  secrets: Readonly<Record<string, string>>,
  write: (chunk: Buffer) => void,
): StderrSink {
  const values = Object.entries(secrets).map(([name, value]) => ({
    name,
    value,
    owners: [server],
  }));
  const matcher = buildSecretMatcher(values);
  if (matcher.empty) return { write, end: () => undefined };
  // Room for the longest form of a value (hex, URL encoding: up to 3 characters a byte).
  const longest = Math.max(...values.map(({ value }) => Buffer.byteLength(value)));
  return new LineRedaction(matcher, write, longest * 3 + 16);
}

class LineRedaction implements StderrSink {
  private pending: Buffer = Buffer.alloc(0);

  constructor(
    private readonly matcher: SecretMatcher,
    private readonly out: (chunk: Buffer) => void,
    /** Kept back from a long line written in parts: a value cut there is found whole later. */
    private readonly overlap: number,
  ) {}

  write(chunk: Buffer): void {
    const bytes = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const lastNewline = bytes.lastIndexOf(0x0a);
    this.pending = lastNewline === -1 ? bytes : bytes.subarray(lastNewline + 1);
    if (lastNewline !== -1) this.lines(bytes.subarray(0, lastNewline + 1));
    if (this.pending.length > MAX_PENDING_BYTES) this.partOfLongLine();
  }

  end(): void {
    if (this.pending.length > 0) this.out(this.redacted(this.pending));
    this.pending = Buffer.alloc(0);
  }

  /** Whole lines: each as it came, or redacted when it holds a secret. */
  private lines(bytes: Buffer): void {
    if (this.matcher.find(bytes.toString('utf8')).length === 0) {
      this.out(bytes);
      return;
    }
    let start = 0;
    for (let newline = bytes.indexOf(0x0a); newline !== -1; newline = bytes.indexOf(0x0a, start)) {
      this.out(this.redacted(bytes.subarray(start, newline + 1)));
      start = newline + 1;
    }
  }

  /**
   * A line that goes on and on: write all but its last `overlap` characters, redacted, so
   * a value that starts in the part kept back is still whole when the rest comes. A
   * character the chunk cut in two waits, undecoded, for its other bytes.
   */
  private partOfLongLine(): void {
    const whole = completeCharacters(this.pending);
    const text = this.matcher.redact(this.pending.subarray(0, whole).toString('utf8')).text;
    const cut = Math.max(0, text.length - this.overlap);
    this.out(Buffer.from(text.slice(0, cut)));
    this.pending = Buffer.concat([Buffer.from(text.slice(cut)), this.pending.subarray(whole)]);
  }

  private redacted(line: Buffer): Buffer {
    const text = line.toString('utf8');
    const { text: shown, hits } = this.matcher.redact(text);
    return hits.length === 0 ? line : Buffer.from(shown);
  }
}

/** How many leading bytes of `bytes` end on a whole UTF-8 character. */
function completeCharacters(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) !== 0x80) {
      // A lead byte: is its sequence whole?
      const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
      return size <= back ? bytes.length : bytes.length - back;
    }
  }
  return bytes.length;
}
