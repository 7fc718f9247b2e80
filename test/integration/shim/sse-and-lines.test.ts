import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineReader } from '../../../src/domain/line-reader.js';
import { SseParser, type SseEvent } from '../../../src/shim/sse-parser.js';

/**
 * The shim's two framings, fed the way sockets and pipes deliver: in chunks split at any
 * byte, including inside CRLF pairs and multi-byte UTF-8 sequences. (Pure: they could
 * live in test/unit/shim, which this change does not own.)
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

function parseSse(chunks: Buffer[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = new SseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return events;
}

const payload = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !/[\r\n]/.test(s));

describe('SseParser', () => {
  it('reads events, multi-line data, ids and skips comments', () => {
    const text =
      ': keepalive\n\nevent: message\nid: 7\ndata: {"a":1}\n\ndata: one\ndata:two\r\n\r\nevent: other\ndata: x\n\n';
    expect(parseSse([Buffer.from(text)])).toEqual([
      { event: 'message', data: '{"a":1}', id: '7' },
      { event: 'message', data: 'one\ntwo', id: '7' },
      { event: 'other', data: 'x', id: '7' },
    ]);
  });

  it('drops an event the stream cut off before its blank line', () => {
    expect(parseSse([Buffer.from('data: done\n\ndata: half')])).toEqual([
      { event: 'message', data: 'done', id: undefined },
    ]);
  });

  it('gives the same events however the bytes are chunked', () => {
    fc.assert(
      fc.property(
        fc.array(payload, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat(), { maxLength: 12 }),
        (datas, eol, cuts) => {
          const text = datas.map((data) => `: c${eol}data: ${data}${eol}${eol}`).join('');
          const bytes = Buffer.from(text, 'utf8');
          expect(parseSse(splitAt(bytes, cuts))).toEqual(parseSse([bytes]));
          expect(parseSse([bytes]).map((event) => event.data)).toEqual(datas);
        },
      ),
    );
  });
});

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
