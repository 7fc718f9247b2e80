/**
 * How the conformance scripts start the suite: on Node 22 (it calls fs.globSync), found
 * once through `npx -y node@22` and then run by its path. An `npx` per suite run cost
 * 1.4 s on a quiet machine and several seconds in CI, where one command runs the suite
 * over twenty times.
 */
import { spawn, spawnSync } from 'node:child_process';
import console from 'node:console';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The 2025 line of the suite (@modelcontextprotocol/conformance, pinned 0.1.16). */
export const legacySuite = join(repoRoot, 'node_modules', '.bin', 'conformance');
/** The 2026-07-28 line (the `conformance-2026` alias of 0.2.0-alpha). */
export const modernSuite = join(repoRoot, 'node_modules', 'conformance-2026', 'dist', 'index.js');

let found;

/** The path of a Node 22 binary (downloaded by npx on first use, then from its cache). */
export function node22() {
  if (found !== undefined) return found;
  const asked = spawnSync('npx', ['-y', 'node@22', '-p', 'process.execPath'], {
    encoding: 'utf8',
    // A first run downloads Node 22; a registry that never answers must not hang the run.
    timeout: 300_000,
  });
  const path = asked.stdout?.trim() ?? '';
  if (asked.status !== 0 || path === '') {
    throw new Error(`could not get Node 22 through npx: ${asked.stderr ?? asked.error ?? ''}`);
  }
  found = path;
  return found;
}

/** Runs the suite at `entry` with `args` on Node 22; resolves with its exit code. */
export function runOnNode22(entry, args, options = {}) {
  let node;
  try {
    node = node22();
  } catch (error) {
    console.error(error.message);
    return Promise.resolve(1);
  }
  console.log(`> node@22 ${[entry, ...args].join(' ')}`);
  const suite = spawn(node, [entry, ...args], { stdio: 'inherit', ...options });
  return new Promise((resolve) => {
    suite.once('error', (error) => {
      console.error(`could not start the suite: ${error.message}`);
      resolve(1);
    });
    suite.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs `entry server --url <url> <selection…>` on Node 22; resolves with its exit code. */
export function runSuite(entry, url, selection) {
  return runOnNode22(entry, ['server', '--url', url, ...selection]);
}
