import { defineConfig } from 'rolldown';

const output = {
  format: 'esm',
  // Chunk names carry hashes: without this, every build would leave the old ones behind.
  cleanDir: true,
  minify: true,
  entryFileNames: '[name].js',
  chunkFileNames: '[name]-[hash].js',
  sourcemap: false,
};

/**
 * One bundle per mode for `bin/coffer.js`: the compiled entry (dist/src/main.js) and its
 * dynamic imports become chunks, so `coffer daemon` and `coffer shim` each load a few
 * files instead of hundreds of modules (kysely alone is 304). That saves start-up time
 * and the daemon's resident memory (docs/PERFORMANCE.md).
 */
const coffer = defineConfig({
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
  output: { ...output, dir: 'dist/bundle' },
});

/**
 * The tests' fake MCP server in one file: the tests start it hundreds of times, and the
 * bundle starts in less than half the time of its compiled modules (see
 * test/fixtures/fake-mcp-server.ts, which picks it).
 */
const fixture = defineConfig({
  input: { 'fake-mcp-server': 'dist/test/fixtures/fake-mcp-server/main.js' },
  platform: 'node',
  external: [/^node:/],
  output: { ...output, dir: 'dist/test-bundle' },
});

export default [coffer, fixture];
