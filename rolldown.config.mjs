import { defineConfig } from 'rolldown';

/**
 * One bundle per mode for `bin/coffer.js`: the compiled entry (dist/src/main.js) and its
 * dynamic imports become chunks, so `coffer daemon` and `coffer shim` each load a few
 * files instead of hundreds of modules (kysely alone is 304). That saves start-up time
 * and the daemon's resident memory (docs/PERFORMANCE.md).
 */
export default defineConfig({
  input: { main: 'dist/src/main.js' },
  platform: 'node',
  // Native addons, and the agents commands' parsers: jsonc-parser's UMD build requires its
  // own files at run time, toml-edit-js loads a WASM file next to it.
  external: [
    'better-sqlite3',
    '@napi-rs/keyring',
    'jsonc-parser',
    '@rainbowatcher/toml-edit-js',
    /^node:/,
  ],
  output: {
    dir: 'dist/bundle',
    format: 'esm',
    minify: true,
    entryFileNames: '[name].js',
    chunkFileNames: '[name]-[hash].js',
    sourcemap: false,
  },
});
