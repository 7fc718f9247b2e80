import { describe, expect, it } from 'vitest';
import { redactingStderr } from '../../../src/upstream/stderr-redaction.js';

const TOKEN = 'tok-0123456789-abcdef';
const MARKER = '[redacted: secret API_TOKEN]';

/** A sink over `secrets`, and everything it wrote, joined. */
function sink(secrets: Record<string, string> = { API_TOKEN: TOKEN }) {
  const written: Buffer[] = [];
  const stderr = redactingStderr('srv', secrets, (chunk) => written.push(chunk));
  return { stderr, written, text: () => Buffer.concat(written).toString('utf8') };
}

describe('redactingStderr', () => {
  it('replaces the value wherever the pipe cut the chunks', () => {
    const line = `starting with API_TOKEN=${TOKEN} ok\n`;
    for (let cut = 1; cut < line.length; cut++) {
      const { stderr, text } = sink();
      stderr.write(Buffer.from(line.slice(0, cut)));
      stderr.write(Buffer.from(line.slice(cut)));
      expect(text()).toBe(`starting with API_TOKEN=${MARKER} ok\n`);
    }
  });

  it('writes a line without a secret as its bytes came, not decoded', () => {
    const { stderr, written } = sink();
    const odd = Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x0a]);
    stderr.write(odd);
    expect(Buffer.concat(written)).toEqual(odd);
  });

  it('holds a line back until its newline, and writes what is left at the end', () => {
    const { stderr, text } = sink();
    stderr.write(Buffer.from(`a\nlast words ${TOKEN.slice(0, 5)}`));
    expect(text()).toBe('a\n');
    stderr.write(Buffer.from(TOKEN.slice(5)));
    stderr.end();
    expect(text()).toBe(`a\nlast words ${MARKER}`);
  });

  it('writes a line with no end in parts, and still finds a value across a part', () => {
    const { stderr, written, text } = sink();
    const accented = Buffer.from('é');
    const first = 'é'.repeat(40_000); // 80 KB: past what is held back, so a part is written
    const second = 'y'.repeat(70_000);
    // The first chunk ends inside a two-byte character; the second in the token's start.
    stderr.write(Buffer.concat([Buffer.from(first), accented.subarray(0, 1)]));
    expect(written.length).toBe(1);
    stderr.write(Buffer.concat([accented.subarray(1), Buffer.from(second + TOKEN.slice(0, 5))]));
    expect(written.length).toBe(2);
    stderr.write(Buffer.from(`${TOKEN.slice(5)}\n`));
    expect(text()).toBe(`${first}é${second}${MARKER}\n`);
  });

  it('passes chunks straight through when the server was given no secret', () => {
    const { stderr, written } = sink({});
    const chunk = Buffer.from('no newline yet');
    stderr.write(chunk);
    expect(written).toEqual([chunk]);
  });
});
