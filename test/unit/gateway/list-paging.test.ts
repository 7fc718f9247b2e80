import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import type { JsonObject } from '../../../src/domain/ports.js';
import { pageOf } from '../../../src/gateway/list-paging.js';

const items: JsonObject[] = Array.from({ length: 1_201 }, (_, i) => ({ name: `tool_${i}` }));

describe('pageOf', () => {
  it('walks a long list in pages by the cursor it hands out, each item once', () => {
    const seen: unknown[] = [];
    let params: JsonObject | undefined;
    let pages = 0;
    for (;;) {
      const page = pageOf('tools', items, params);
      pages += 1;
      seen.push(...(page['tools'] as JsonObject[]).map((tool) => tool['name']));
      const next = page['nextCursor'];
      if (next === undefined) break;
      params = { cursor: next };
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(items.map((tool) => tool['name']));
  });

  it('answers a short list in one page without a cursor', () => {
    const page = pageOf('prompts', items.slice(0, 3), undefined);
    expect(page).toEqual({ prompts: items.slice(0, 3) });
  });

  it('refuses a cursor it did not hand out, saying to list again', () => {
    for (const cursor of ['garbage', 42, Buffer.from('offset:-1').toString('base64url')]) {
      try {
        pageOf('tools', items, { cursor });
        expect.unreachable(`cursor ${String(cursor)} was accepted`);
      } catch (error) {
        expect(error).toBeInstanceOf(CofferError);
        expect(error).toMatchObject({ code: 'INVALID_INPUT' });
      }
    }
  });
});
