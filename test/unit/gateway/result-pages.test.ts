import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pageSize, splitPages, textPieces } from '../../../src/gateway/result-pages.js';

describe('textPieces', () => {
  it('cuts after a line end in the second half of the window', () => {
    const text = `${'a'.repeat(60)}\n${'b'.repeat(60)}`;
    expect(textPieces(text, 100)).toEqual([`${'a'.repeat(60)}\n`, 'b'.repeat(60)]);
  });

  it('falls back to a space, then to the window end', () => {
    expect(textPieces('aaaa bbbb cc', 8)).toEqual(['aaaa ', 'bbbb cc']);
    expect(textPieces('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  it('never splits a surrogate pair', () => {
    const pieces = textPieces('abc😀def', 4);
    expect(pieces).toEqual(['abc', '😀de', 'f']);
  });

  it('keeps an empty text as one empty piece', () => {
    expect(textPieces('', 10)).toEqual(['']);
  });

  it('gives back exactly the whole text, each piece within the limit', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 400 }),
        fc.integer({ min: 2, max: 50 }),
        (text, max) => {
          const pieces = textPieces(text, max);
          expect(pieces.join('')).toBe(text);
          for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(max);
        },
      ),
    );
  });
});

describe('splitPages', () => {
  it('pages text items, keeps other items whole and pages structuredContent as JSON', () => {
    const image = { type: 'image', data: 'A'.repeat(500), mimeType: 'image/png' };
    const pages = splitPages(
      {
        content: [{ type: 'text', text: 'x'.repeat(250) }, image, { type: 'text', text: 'short' }],
        structuredContent: { rows: [1, 2, 3] },
      },
      100,
    );
    expect(pages.map((page) => [page.kind, page.source, pageSize(page)])).toEqual([
      ['text', 0, 100],
      ['text', 0, 100],
      ['text', 0, 50],
      ['item', 1, JSON.stringify(image).length],
      ['text', 2, 5],
      ['text', 'structured', JSON.stringify({ rows: [1, 2, 3] }).length],
    ]);
  });
});
