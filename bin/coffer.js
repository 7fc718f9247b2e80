#!/usr/bin/env node
// Thin launcher. `npm run build` compiles to dist/src and bundles that into dist/bundle
// (one file per mode: faster start, less memory, see docs/PERFORMANCE.md). The bundle is
// used only when it is at least as new as the compiled code, so a bare `tsc` rebuild is
// never shadowed by a stale bundle.
import { statSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const compiled = new URL('../dist/src/main.js', import.meta.url);
const bundled = new URL('../dist/bundle/main.js', import.meta.url);

function modified(url) {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return undefined;
  }
}

const compiledAt = modified(compiled);
const bundledAt = modified(bundled);
const entry =
  bundledAt !== undefined && (compiledAt === undefined || bundledAt >= compiledAt)
    ? bundled
    : compiled;

import(entry.href).catch((error) => {
  if (
    error &&
    error.code === 'ERR_MODULE_NOT_FOUND' &&
    String(error.message).includes('dist/src/main.js')
  ) {
    process.stderr.write('coffer: not built yet. Run `npm run build` first.\n');
    process.exit(1);
  }
  throw error;
});
