import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect, it } from 'vitest';

/**
 * The shim starts on every agent launch, so what it loads is part of its contract: node
 * built-ins and Coffer's own small modules, with proper-lockfile only on the spawn path
 * (a dynamic import). No commander, pino, zod, hono, kysely, SQLite or MCP SDK.
 */

const srcRoot = resolve(import.meta.dirname, '../../../src');
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g;

interface Graph {
  readonly files: Set<string>;
  /** Package specifier → whether every path to it goes through a dynamic import. */
  readonly packages: Map<string, boolean>;
}

function walk(file: string, lazy: boolean, graph: Graph): void {
  const key = `${file}|${lazy}`;
  if (graph.files.has(key)) return;
  graph.files.add(key);
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2]!;
    if (/^import type\s/.test(match[0].trim())) continue;
    const viaDynamic = lazy || match[2] !== undefined;
    if (specifier.startsWith('.')) {
      walk(join(dirname(file), specifier.replace(/\.js$/, '.ts')), viaDynamic, graph);
    } else {
      graph.packages.set(specifier, (graph.packages.get(specifier) ?? true) && viaDynamic);
    }
  }
}

it('loads only node built-ins eagerly, and proper-lockfile only to spawn a daemon', () => {
  const graph: Graph = { files: new Set(), packages: new Map() };
  walk(join(srcRoot, 'shim/run-shim.ts'), false, graph);
  const eager = [...graph.packages].filter(([, lazy]) => !lazy).map(([name]) => name);
  const lazy = [...graph.packages].filter(([, onlyLazy]) => onlyLazy).map(([name]) => name);
  expect(eager.filter((name) => !name.startsWith('node:'))).toEqual([]);
  expect(lazy.filter((name) => !name.startsWith('node:'))).toEqual(['proper-lockfile']);
  const files = new Set([...graph.files].map((entry) => entry.split('|')[0]!));
  // Raised by one for domain/json-text.ts (no imports): the shim reads lines as the daemon
  // does; and by one for domain/read-hold.ts (no imports): its back-pressure.
  expect(files.size).toBeLessThan(27);
});
