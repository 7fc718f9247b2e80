// `npm run eval:search`: recall@k of coffer__search_tools' ranking over real tool
// catalogs (test/fixtures/tool-catalogs) and labelled queries
// (test/fixtures/tool-search-eval.json): recall@5 and MRR overall, for the dev and
// held-out splits and per server, plus the size of tools/list in full vs lean
// mode. Runs the built code in dist/ (the npm script builds first).
import console from 'node:console';
import { resolve } from 'node:path';
import process from 'node:process';
import {
  buildIndex,
  evaluate,
  fixturePaths,
  listSizes,
  loadCatalogs,
  loadEvalSet,
} from '../dist/test/fixtures/tool-search/search-eval.js';
import { benchmarkToolSearch } from '../dist/test/fixtures/tool-search/search-benchmark.js';

const root = resolve(import.meta.dirname, '..');
const paths = fixturePaths(root);
const catalogs = loadCatalogs(paths.catalogs);
const set = loadEvalSet(paths.evalSet);
const report = evaluate(buildIndex(catalogs), set, catalogs);
const sizes = listSizes(catalogs);
const timing = benchmarkToolSearch({ repoRoot: root, tools: 1000 });
const json = process.argv.includes('--json');

if (json) {
  console.log(JSON.stringify({ ...report, sizes, timing }, null, 2));
} else {
  const percent = (value) => `${(value * 100).toFixed(1)}%`;
  console.log(
    `${report.queries} queries, ${report.servers} servers, ${report.tools} tools ` +
      `(${catalogs.map((c) => `${c.server} ${c.version}`).join(', ')})`,
  );
  const line = (label, score) =>
    `${label.padEnd(20)} ${String(score.queries).padStart(3)} queries  ` +
    `recall@${report.k} ${score.recall.toFixed(3)}  MRR ${score.mrr.toFixed(3)}  ` +
    `hit@${report.k} ${percent(score.hitRate)}`;
  console.log(line('overall', report));
  for (const [split, score] of Object.entries(report.splits)) console.log(line(split, score));
  for (const [server, score] of Object.entries(report.perServer))
    console.log(line(`  ${server}`, score));
  for (const miss of report.misses)
    console.log(
      `  miss (${miss.split}): "${miss.query}"\n    expected ${miss.expected.join(', ')}\n    got      ${miss.got.join(', ')}`,
    );
  console.log(
    `tools/list size (characters / 4): full ${sizes.full.tokens} tokens (${sizes.full.chars} chars), ` +
      `lean ${sizes.lean.tokens} tokens (${sizes.lean.chars} chars)`,
  );
  const { searchMs } = timing;
  console.log(
    `searching ${timing.tools} tools (${timing.servers} servers): p50 ${searchMs.p50} ms, ` +
      `p90 ${searchMs.p90} ms, p99 ${searchMs.p99} ms over ${timing.searches} searches; ` +
      `indexing all ${timing.indexMs} ms (first in the process ${timing.indexColdMs} ms), ` +
      `re-indexing one changed server ${timing.reindexServerMs} ms, ` +
      `one reloaded unchanged ${timing.unchangedServerMs} ms`,
  );
}
// The same overall floor as test/unit/search/search-eval.test.ts.
if (report.recall < 0.93) process.exitCode = 1;
