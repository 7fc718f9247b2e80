#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm run build`.
import('../dist/src/cli/main.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/src/cli')) {
    process.stderr.write('coffer: not built yet. Run `npm run build` first.\n');
    process.exit(1);
  }
  throw error;
});
