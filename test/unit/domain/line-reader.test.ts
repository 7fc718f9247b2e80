import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineReader } from '../../../src/domain/line-reader.js';

/**
 * The line framing of stdio and of the shim's channel, fed the way sockets and pipes
 * deliver: in chunks split at any byte, including inside CRLF pairs and multi-byte UTF-8
 * sequences.
 */

function splitAt(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

const payload = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !/[\r\n]/.test(s));

describe('LineReader', () => {
  it('yields each non-empty line once, however the bytes are chunked', () => {
    fc.assert(
      fc.property(
        fc.array(payload, { maxLength: 8 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (lines, crlf, cuts) => {
          const bytes = Buffer.from(lines.map((line) => `${line}${crlf ? '\r\n' : '\n'}`).join(''));
          const seen: string[] = [];
          const reader = new LineReader({
            onLine: (line) => seen.push(line),
            onOverflow: () => {},
          });
          for (const chunk of splitAt(bytes, cuts)) reader.push(chunk);
          expect(seen).toEqual(lines.filter((line) => line.trim() !== ''));
        },
      ),
    );
  });

  it('yields the bytes of each line undecoded when asked for bytes, CR and blank lines dropped', () => {
    const seen: string[] = [];
    const reader = new LineReader({
      onBytes: (line) => seen.push(line.toString('hex')),
      onOverflow: () => {},
    });
    const text = Buffer.from('{"a":"é"}\r\n \t\n\nsecond');
    for (const chunk of splitAt(text, [5, 6, 12])) reader.push(chunk);
    reader.push(Buffer.from(' line\n'));
    expect(seen).toEqual([
      Buffer.from('{"a":"é"}').toString('hex'),
      Buffer.from('second line').toString('hex'),
    ]);
  });

  it('drops a line over the limit and resumes at the next one', () => {
    const seen: string[] = [];
    const overflows: number[] = [];
    const reader = new LineReader(
      { onLine: (line) => seen.push(line), onOverflow: (bytes) => overflows.push(bytes) },
      8,
    );
    reader.push(Buffer.from('short\n0123456'));
    reader.push(Buffer.from('789abcdef\nnext\n'));
    expect(seen).toEqual(['short', 'next']);
    expect(overflows).toHaveLength(1);
  });
});
