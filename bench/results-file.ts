import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './daemon.js';

/**
 * Saves a run's JSON under bench/results/ (git-ignored) twice: stamped with its start
 * time, so runs accumulate, and as `latest-<kind>.json`, so tools can find the last one.
 */
export function saveResults(
  results: { readonly startedAt: string },
  stamped: string,
  kind: string,
): string {
  const dir = join(repoRoot, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const file = join(dir, `${stamped}-${results.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, json);
  writeFileSync(join(dir, `latest-${kind}.json`), json);
  return file;
}
