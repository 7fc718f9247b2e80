import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import type { Clock, JsonObject } from '../../../src/domain/ports.js';
import { OversizedResults } from '../../../src/gateway/oversized-results.js';
import { resultChars } from '../../../src/gateway/result-cut.js';

const BUDGET = 1000; // tokens: 4000 characters, pages of 1500
const TTL = 30 * 60_000;

function manualClock() {
  let now = Date.parse('2026-12-04T08:00:00Z');
  const clock: Clock = { now: () => new Date(now) };
  return { clock, advance: (ms: number) => (now += ms) };
}

function limiter(clock = manualClock().clock) {
  return new OversizedResults({ budgetTokens: BUDGET, ttlMs: TTL }, clock);
}

function content(result: JsonObject): JsonObject[] {
  return result['content'] as JsonObject[];
}

/** The note is the last item; the URI it names is the kept result. */
function keptUri(result: JsonObject): string {
  const note = content(result).at(-1)!['text'] as string;
  const match = /(coffer:\/\/coffer\/results\/[A-Za-z0-9_-]+):/.exec(note);
  if (match === null) throw new Error(`no URI in the note: ${note}`);
  return match[1]!;
}

function readText(results: OversizedResults, uri: string): string {
  const [contents] = results.read(uri)['contents'] as JsonObject[];
  return contents!['text'] as string;
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof CofferError ? error.code : 'not a CofferError';
  }
  return undefined;
}

const lines = (count: number) =>
  Array.from({ length: count }, (_, i) => `line ${i} of the report 😀`).join('\n');

describe('OversizedResults', () => {
  it('leaves a result within the budget untouched', () => {
    const result = { content: [{ type: 'text', text: 'x'.repeat(3900) }], _meta: { a: 1 } };
    expect(limiter().fit(result)).toBe(result);
  });

  it('cuts a big text to its first page and a note naming the kept result and its pages', () => {
    const text = lines(1000);
    const cut = limiter().fit({
      content: [{ type: 'text', text, annotations: { audience: ['user'] } }],
      _meta: { fixture: true },
      extra_field: 'kept',
    });
    expect(resultChars(cut)).toBeLessThanOrEqual(BUDGET * 4);
    const [first, note] = content(cut);
    expect(first).toMatchObject({ type: 'text', annotations: { audience: ['user'] } });
    expect(text.startsWith(first!['text'] as string)).toBe(true);
    expect(first!['text']).toMatch(/\n$/);
    const uri = keptUri(cut);
    const shown = /over the 1,000-token limit\. Shown: page 1 of (\d+)\. The whole result/.exec(
      note!['text'] as string,
    );
    expect(Number(shown?.[1])).toBeGreaterThanOrEqual(Math.ceil(text.length / 1500));
    expect(note!['text']).toContain(`read page N with resources/read of ${uri}/N`);
    expect(note!['text']).toContain('kept for 30 minutes');
    expect(note!['text']).toContain('The text cut off above goes on at page 2.');
    expect(cut).toMatchObject({ _meta: { fixture: true }, extra_field: 'kept' });
  });

  it('gives the pages back, in order, as exactly the whole text', () => {
    const results = limiter();
    const text = lines(2000);
    const uri = keptUri(results.fit({ content: [{ type: 'text', text }] }));
    const read: string[] = [];
    for (let page = 1; read.join('').length < text.length; page += 1) {
      read.push(readText(results, `${uri}/${page}`));
      expect(read.at(-1)!.length).toBeLessThanOrEqual(1500);
    }
    expect(read.join('')).toBe(text);
    expect(readText(results, uri)).toBe(read[0]);
    expect(results.read(`${uri}/2`)).toEqual({
      contents: [{ uri: `${uri}/2`, mimeType: 'text/plain', text: read[1] }],
    });
    expect(codeOf(() => results.read(`${uri}/${read.length + 1}`))).toBe('INVALID_INPUT');
    expect(codeOf(() => results.read(`${uri}/0`))).toBe('INVALID_INPUT');
    // A page that is no number names no page of a result that is there: not "no kept result".
    for (const page of ['-1', 'abc', '', '1.5'])
      expect(
        codeOf(() => results.read(`${uri}/${page}`)),
        page,
      ).toBe('INVALID_INPUT');
  });

  it('answers an unknown, malformed or expired id with CAPABILITY_NOT_FOUND', () => {
    const { clock, advance } = manualClock();
    const results = limiter(clock);
    const uri = keptUri(results.fit({ content: [{ type: 'text', text: lines(500) }] }));
    expect(codeOf(() => results.read('coffer://coffer/results/AAAAAAAAAAAAAAAAAAAAAA/1'))).toBe(
      'CAPABILITY_NOT_FOUND',
    );
    expect(codeOf(() => results.read('coffer://coffer/results/../x'))).toBe('CAPABILITY_NOT_FOUND');
    expect(readText(results, `${uri}/1`)).toMatch(/^line 0/);
    advance(TTL);
    const expired = (() => {
      try {
        return results.read(`${uri}/1`);
      } catch (error) {
        return error as CofferError;
      }
    })();
    expect(expired).toBeInstanceOf(CofferError);
    expect((expired as CofferError).userMessage).toBe(
      `No kept result at ${uri}/1 (a result is kept 30 minutes after its call, and only in its own session: call the tool again)`,
    );
  });

  it('reads only its own URIs', () => {
    const results = limiter();
    expect(results.handles('coffer://coffer/results/abc')).toBe(true);
    expect(results.handles('coffer://files/file:///tmp/results')).toBe(false);
    expect(results.handles(42)).toBe(false);
  });

  it('shows the items that fit, names the rest, and keeps an image whole as a blob page', () => {
    const results = limiter();
    const image = { type: 'image', data: 'A'.repeat(4000), mimeType: 'image/png' };
    const cut = results.fit({
      content: [{ type: 'text', text: 'summary' }, image],
      structuredContent: { rows: [1, 2] },
    });
    expect(content(cut)[0]).toEqual({ type: 'text', text: 'summary' });
    expect(cut['structuredContent']).toBeUndefined();
    const note = content(cut).at(-1)!['text'] as string;
    expect(note).toContain('Shown: page 1 of 3.');
    expect(note).toContain('Not shown: 2 image, 3 structuredContent (JSON).]');
    const uri = keptUri(cut);
    expect(results.read(`${uri}/2`)).toEqual({
      contents: [{ uri: `${uri}/2`, mimeType: 'image/png', blob: image.data }],
    });
    expect(results.read(`${uri}/3`)).toEqual({
      contents: [{ uri: `${uri}/3`, mimeType: 'application/json', text: '{"rows":[1,2]}' }],
    });
  });

  it('keeps structuredContent when all content and it fit; oversized fields keep isError only', () => {
    const cut = limiter().fit({
      content: [{ type: 'text', text: 'x'.repeat(1300) }],
      structuredContent: { ok: false },
      isError: true,
      _meta: { huge: 'm'.repeat(3000) },
    });
    expect(cut['structuredContent']).toEqual({ ok: false });
    expect(cut['isError']).toBe(true);
    expect(cut['_meta']).toBeUndefined();
    expect(content(cut).at(-1)!['text']).toContain(
      "Not shown: nothing but the result's own oversized fields.]",
    );
  });

  it('says so when not even the first page fits', () => {
    const cut = limiter().fit({
      content: [{ type: 'image', data: 'A'.repeat(5000), mimeType: 'image/png' }],
    });
    expect(content(cut)).toHaveLength(1);
    expect(content(cut)[0]!['text']).toContain('Shown: none of its 1 pages.');
  });

  it('always fits the budget, and every text item can be read back whole', () => {
    const item = fc.oneof(
      fc.string({ maxLength: 3000 }).map((text) => ({ type: 'text', text })),
      fc
        .integer({ min: 1, max: 2000 })
        .map((size) => ({ type: 'audio', data: 'B'.repeat(size), mimeType: 'audio/wav' })),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), (items) => {
        const results = limiter();
        const result = { content: items };
        const cut = results.fit(result);
        expect(resultChars(cut)).toBeLessThanOrEqual(BUDGET * 4);
        if (cut === result) return;
        const uri = keptUri(cut);
        let texts = '';
        for (let page = 1; codeOf(() => results.read(`${uri}/${page}`)) === undefined; page += 1) {
          const [contents] = results.read(`${uri}/${page}`)['contents'] as JsonObject[];
          if (typeof contents!['text'] === 'string') texts += contents!['text'];
        }
        expect(texts).toBe(items.map((whole) => ('text' in whole ? whole.text : '')).join(''));
      }),
      { numRuns: 60 },
    );
  });
});
