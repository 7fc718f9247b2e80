import { describe, expect, it } from 'vitest';
import { LineReader } from '../../../src/gateway/line-reader.js';

function reader(maxBytes = 16) {
  const seen: string[] = [];
  const lines = new LineReader({
    maxBytes,
    onLine: (line) => seen.push(line.toString('utf8')),
    onTooLarge: () => seen.push('<too large>'),
  });
  return { lines, seen };
}

describe('LineReader', () => {
  it('splits on newlines across chunks, skipping empty lines', () => {
    const { lines, seen } = reader();
    lines.feed(Buffer.from('ab'));
    lines.feed(Buffer.from('c\n\nde\nf'));
    lines.feed(Buffer.from('\n'));
    expect(seen).toEqual(['abc', 'de', 'f']);
  });

  it('never decodes a UTF-8 character cut between chunks in halves', () => {
    const { lines, seen } = reader();
    const bytes = Buffer.from('é€\n', 'utf8');
    for (const byte of bytes) lines.feed(Buffer.from([byte]));
    expect(seen).toEqual(['é€']);
  });

  it('drops a line over the limit whole, reports it once, and reads the next', () => {
    const { lines, seen } = reader(4);
    lines.feed(Buffer.from('123'));
    lines.feed(Buffer.from('45678'));
    lines.feed(Buffer.from('9\nok\n'));
    expect(seen).toEqual(['<too large>', 'ok']);
  });
});
