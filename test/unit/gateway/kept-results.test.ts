import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/domain/ports.js';
import { KeptResults } from '../../../src/gateway/kept-results.js';
import type { ResultPage } from '../../../src/gateway/result-pages.js';

function manualClock(start = Date.parse('2026-12-04T08:00:00Z')) {
  let now = start;
  const clock: Clock = { now: () => new Date(now) };
  return { clock, advance: (ms: number) => (now += ms) };
}

function textPages(...texts: string[]): ResultPage[] {
  return texts.map((text) => ({ kind: 'text', source: 0, text }));
}

function sequentialIds() {
  let next = 0;
  return () => `id${(next += 1)}`;
}

describe('KeptResults', () => {
  it('gives back the pages kept under an id until the TTL has passed', () => {
    const { clock, advance } = manualClock();
    const kept = new KeptResults({ clock, ttlMs: 60_000 });
    const pages = textPages('one', 'two');
    const id = kept.keep(pages);
    advance(59_999);
    expect(kept.pages(id)).toBe(pages);
    advance(1);
    expect(kept.pages(id)).toBeUndefined();
    expect(kept.size).toBe(0);
  });

  it('answers undefined for an id it never gave', () => {
    const kept = new KeptResults({ clock: manualClock().clock, ttlMs: 60_000 });
    kept.keep(textPages('a'));
    expect(kept.pages('nope')).toBeUndefined();
  });

  it('makes random, unguessable ids', () => {
    const kept = new KeptResults({ clock: manualClock().clock, ttlMs: 60_000, maxResults: 100 });
    const ids = Array.from({ length: 50 }, () => kept.keep(textPages('a')));
    expect(new Set(ids).size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('evicts the oldest results beyond the count limit', () => {
    const kept = new KeptResults({
      clock: manualClock().clock,
      ttlMs: 60_000,
      maxResults: 2,
      newId: sequentialIds(),
    });
    kept.keep(textPages('a'));
    kept.keep(textPages('b'));
    kept.keep(textPages('c'));
    expect(kept.pages('id1')).toBeUndefined();
    expect(kept.pages('id2')).toEqual(textPages('b'));
    expect(kept.pages('id3')).toEqual(textPages('c'));
  });

  it('evicts the oldest beyond the size limit, but always keeps the newest', () => {
    const kept = new KeptResults({
      clock: manualClock().clock,
      ttlMs: 60_000,
      maxChars: 10,
      newId: sequentialIds(),
    });
    kept.keep(textPages('aaaa'));
    kept.keep(textPages('bbbb'));
    expect(kept.size).toBe(2);
    kept.keep(textPages('cccc'));
    expect([kept.pages('id1'), kept.pages('id2')]).toEqual([undefined, textPages('bbbb')]);
    kept.keep(textPages('x'.repeat(50)));
    expect(kept.size).toBe(1);
    expect(kept.pages('id4')).toEqual(textPages('x'.repeat(50)));
  });

  it('frees the room of expired results', () => {
    const { clock, advance } = manualClock();
    const kept = new KeptResults({ clock, ttlMs: 1000, maxChars: 10, newId: sequentialIds() });
    kept.keep(textPages('aaaaaaaa'));
    advance(1000);
    kept.keep(textPages('bbbbbbbb'));
    kept.keep(textPages('cc'));
    expect(kept.pages('id2')).toEqual(textPages('bbbbbbbb'));
    expect(kept.pages('id3')).toEqual(textPages('cc'));
  });
});
