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
 * The floors of issues 9 and 19: over real catalogs of real MCP servers, plain-language
 * queries find their tools in the top 5. The held-out queries are never tuned on, so
 * their floor is lower and says whether the ranking generalises. `npm run eval:search`
 * prints the figures and the misses.
 */
describe('tool search evaluation', () => {
  const paths = fixturePaths(resolve(import.meta.dirname, '../../..'));
  const catalogs = loadCatalogs(paths.catalogs);
  const set = loadEvalSet(paths.evalSet);

  it('covers at least 200 queries over at least 8 real servers, 60 of them held out', () => {
    expect(set.queries.length).toBeGreaterThanOrEqual(200);
    expect(set.queries.filter((q) => q.split === 'held-out').length).toBeGreaterThanOrEqual(60);
    for (const query of set.queries) expect(['dev', 'held-out']).toContain(query.split);
    expect(catalogs.length).toBeGreaterThanOrEqual(8);
    for (const catalog of catalogs) {
      expect(catalog.package).toMatch(/^@modelcontextprotocol\/server-/);
      expect(catalog.tools.length).toBeGreaterThan(0);
    }
    const answered = new Set(set.queries.flatMap((q) => q.expected.map((n) => n.split('__')[0])));
    expect(answered.size).toBeGreaterThanOrEqual(8);
  });

  it('keeps recall@5 and MRR above their floors, on dev and held-out queries', () => {
    const report = evaluate(buildIndex(catalogs), set, catalogs);
    const misses = JSON.stringify(report.misses, null, 2);
    expect(set.k).toBe(5);
    expect(report.recall, misses).toBeGreaterThanOrEqual(0.93);
    expect(report.mrr, misses).toBeGreaterThanOrEqual(0.83);
    expect(report.splits.dev.recall, misses).toBeGreaterThanOrEqual(0.95);
    expect(report.splits['held-out'].recall, misses).toBeGreaterThanOrEqual(0.85);
    expect(report.splits['held-out'].mrr, misses).toBeGreaterThanOrEqual(0.72);
  });

  it('makes tools/list much smaller in lean mode', () => {
    const sizes = listSizes(catalogs);
    expect(sizes.lean.tokens * 10).toBeLessThan(sizes.full.tokens);
  });
});
