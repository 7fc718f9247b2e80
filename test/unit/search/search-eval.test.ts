import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import {
  buildIndex,
  evaluate,
  fixturePaths,
  listSizes,
  loadCatalogs,
  loadEvalSet,
} from '../../fixtures/tool-search/search-eval.js';

/**
 * The floor of issue 9: over real catalogs of real MCP servers, the labelled queries
 * find their tools in the top 5 at least 90% of the time. `npm run eval:search` prints
 * the misses when this fails.
 */
describe('tool search evaluation', () => {
  const paths = fixturePaths(resolve(import.meta.dirname, '../../..'));
  const catalogs = loadCatalogs(paths.catalogs);
  const set = loadEvalSet(paths.evalSet);

  it('covers at least 60 queries over at least 8 real servers', () => {
    expect(set.queries.length).toBeGreaterThanOrEqual(60);
    expect(catalogs.length).toBeGreaterThanOrEqual(8);
    for (const catalog of catalogs) {
      expect(catalog.package).toMatch(/^@modelcontextprotocol\/server-/);
      expect(catalog.tools.length).toBeGreaterThan(0);
    }
    const answered = new Set(set.queries.flatMap((q) => q.expected.map((n) => n.split('__')[0])));
    expect(answered.size).toBeGreaterThanOrEqual(8);
  });

  it('keeps recall@5 at 0.9 or more', () => {
    const report = evaluate(buildIndex(catalogs), set, catalogs);
    expect(set.k).toBe(5);
    expect(report.recall, JSON.stringify(report.misses, null, 2)).toBeGreaterThanOrEqual(0.9);
  });

  it('makes tools/list much smaller in lean mode', () => {
    const sizes = listSizes(catalogs);
    expect(sizes.lean.tokens * 10).toBeLessThan(sizes.full.tokens);
  });
});
