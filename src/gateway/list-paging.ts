import { CofferError } from '../domain/errors.js';
import type { JsonObject } from '../domain/ports.js';

/** Downstream pages: big enough that most clients never page, small enough to bound one answer. */
const PAGE_SIZE = 500;

/**
 * One page of a downstream list answer. The cursor is opaque to the client and holds only
 * an offset into the session's current list, so it never leaks an upstream's own cursor.
 */
export function pageOf(
  field: string,
  items: JsonObject[],
  params: JsonObject | undefined,
): JsonObject {
  const cursor = params?.['cursor'];
  const start = cursor === undefined ? 0 : decodeCursor(cursor);
  const slice = items.slice(start, start + PAGE_SIZE);
  const next =
    start + PAGE_SIZE < items.length ? { nextCursor: encodeCursor(start + PAGE_SIZE) } : {};
  return { [field]: slice, ...next };
}

function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

function decodeCursor(cursor: unknown): number {
  const text = typeof cursor === 'string' ? Buffer.from(cursor, 'base64url').toString() : '';
  const match = /^offset:(\d{1,9})$/.exec(text);
  if (match?.[1] === undefined)
    throw new CofferError('INVALID_INPUT', 'Invalid cursor', {
      hint: 'list again without a cursor',
    });
  return Number(match[1]);
}
