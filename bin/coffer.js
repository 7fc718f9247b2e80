#!/usr/bin/env node
// Thin launcher: the entry point is compiled to dist/ by `npm run build`.
import process from 'node:process';

import('../dist/src/main.js').catch((error) => {
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
