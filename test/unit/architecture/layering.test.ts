import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { entryFiles, forbiddenModules, layers } from '../../../tools/layers.js';

const srcRoot = resolve(import.meta.dirname, '../../../src');

/** Every .ts file under a directory, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Relative import specifiers of a file: static, type-only, re-exports and dynamic. */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) if (match[1] !== undefined) found.push(match[1]);
  }
  return found.filter((specifier) => specifier.startsWith('.'));
}

/** The layer a src/ file belongs to: its first folder, or undefined for entry files. */
function layerOf(file: string): string | undefined {
  const [first, second] = relative(srcRoot, file).split(sep);
  return second === undefined ? undefined : first;
}

export function violations(files: { path: string; source: string }[]): string[] {
  const problems: string[] = [];
  for (const { path, source } of files) {
    const from = layerOf(path);
    if (from === undefined) continue;
    const rule = layers[from];
    if (rule === undefined) {
      problems.push(
        `${relative(srcRoot, path)}: folder "${from}" is not a known layer (tools/layers.js)`,
      );
      continue;
    }
    for (const specifier of importsOf(source)) {
      const target = layerOf(resolve(dirname(path), specifier));
      if (target === undefined || target === from || rule.may.includes(target)) continue;
      problems.push(
        `${relative(srcRoot, path)} imports ${specifier}: ${from} may not import ${target}`,
      );
    }
  }
  return problems;
}

/** Imports of a module src/ must not use (tools/layers.js), bare or `node:` named. */
export function forbiddenImports(files: { path: string; source: string }[]): string[] {
  const problems: string[] = [];
  for (const { path, source } of files) {
    for (const { name } of forbiddenModules) {
      const bare = name.replace(/^node:/, '');
      const pattern = new RegExp(
        `from\\s+['"](?:node:)?${bare}['"]|import\\(\\s*['"](?:node:)?${bare}['"]`,
      );
      if (pattern.test(source)) problems.push(`${relative(srcRoot, path)} imports ${name}`);
    }
  }
  return problems;
}

describe('the dependency direction of src/', () => {
  const files = sourceFiles(srcRoot).map((path) => ({ path, source: readFileSync(path, 'utf8') }));

  it('has no forbidden import anywhere', () => {
    expect(violations(files)).toEqual([]);
  });

  it('puts every top-level file on the entry list', () => {
    const topLevel = files.map((f) => relative(srcRoot, f.path)).filter((p) => !p.includes(sep));
    expect(topLevel.every((name) => entryFiles.includes(name))).toBe(true);
  });

  it('catches a forbidden import (the check can fail)', () => {
    const planted = {
      path: join(srcRoot, 'domain', 'planted.ts'),
      source: "import { openDatabase } from '../store/database.js';\n",
    };
    expect(violations([planted])).toEqual([
      'domain/planted.ts imports ../store/database.js: domain may not import store',
    ]);
  });

  it('imports no forbidden node module (AsyncLocalStorage), and the check can fail', () => {
    expect(forbiddenImports(files)).toEqual([]);
    const planted = [
      { path: join(srcRoot, 'gateway', 'a.ts'), source: "import { X } from 'node:async_hooks';" },
      { path: join(srcRoot, 'gateway', 'b.ts'), source: "import type { Y } from 'async_hooks';" },
    ];
    expect(forbiddenImports(planted)).toEqual([
      'gateway/a.ts imports node:async_hooks',
      'gateway/b.ts imports node:async_hooks',
    ]);
  });

  it('sees dynamic and type-only imports too', () => {
    const planted = {
      path: join(srcRoot, 'cli', 'planted.ts'),
      source:
        "import type { Gateway } from '../gateway/gateway.js';\nawait import('../daemon/services.js');\n",
    };
    expect(violations([planted])).toHaveLength(2);
  });
});
