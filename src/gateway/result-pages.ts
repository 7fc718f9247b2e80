import type { JsonObject } from '../domain/ports.js';

/**
 * One page of an oversized tool result, as a client reads it back: a piece of one text
 * item, one non-text content item whole (an image cannot be cut), or a piece of the
 * structuredContent as JSON text. `source` is the content index the page comes from,
 * or 'structured'; pieces of one source, in page order, are exactly its whole text.
 */
export type ResultPage =
  | { readonly kind: 'text'; readonly source: number | 'structured'; readonly text: string }
  | { readonly kind: 'item'; readonly source: number; readonly item: JsonObject };

/** The size of a page in characters: its text, or the JSON of its item. */
export function pageSize(page: ResultPage): number {
  return page.kind === 'text' ? page.text.length : JSON.stringify(page.item).length;
}

/** A text content item (`{type: 'text', text}`), whose text is cut across pages. */
export function textOf(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const { type, text } = item as JsonObject;
  return type === 'text' && typeof text === 'string' ? text : undefined;
}

/**
 * Splits a tool result into pages of at most `pageChars` characters each (a non-text
 * item larger than that stays one page): text items and the structuredContent's JSON
 * are cut at line ends where possible, then at spaces, never inside a UTF-16 pair.
 */
export function splitPages(result: JsonObject, pageChars: number): ResultPage[] {
  const pages: ResultPage[] = [];
  const content = Array.isArray(result['content']) ? (result['content'] as unknown[]) : [];
  content.forEach((item, source) => {
    const text = textOf(item);
    if (text !== undefined) {
      for (const piece of textPieces(text, pageChars))
        pages.push({ kind: 'text', source, text: piece });
    } else {
      pages.push({ kind: 'item', source, item: item as JsonObject });
    }
  });
  const structured = result['structuredContent'];
  if (structured !== undefined) {
    for (const piece of textPieces(JSON.stringify(structured), pageChars))
      pages.push({ kind: 'text', source: 'structured', text: piece });
  }
  return pages;
}

/** `text` in pieces of at most `maxChars`; an empty text is one empty piece. */
export function textPieces(text: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  do {
    const end = pieceEnd(text, start, maxChars);
    pieces.push(text.slice(start, end));
    start = end;
  } while (start < text.length);
  return pieces;
}

/**
 * Where a piece starting at `start` ends: after the last line end in the second half of
 * the window, else after its last space, else at the window's end (one earlier when
 * that would split a surrogate pair).
 */
function pieceEnd(text: string, start: number, maxChars: number): number {
  const limit = start + Math.max(1, maxChars);
  if (limit >= text.length) return text.length;
  const floor = start + Math.floor(maxChars / 2);
  const line = text.lastIndexOf('\n', limit - 1);
  if (line >= floor) return line + 1;
  const space = text.lastIndexOf(' ', limit - 1);
  if (space >= floor) return space + 1;
  const splitsPair = isHighSurrogate(text.charCodeAt(limit - 1)) && limit - 1 > start;
  return splitsPair ? limit - 1 : limit;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
