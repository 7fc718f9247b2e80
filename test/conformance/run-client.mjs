#!/usr/bin/env node
/**
 * Runs the official conformance suite's client scenarios against Coffer as an MCP client
 * (test/conformance/gateway-client.mjs: the suite's test server registered as an upstream,
 * reached through the daemon), one scenario after another, stopping at the first failure.
 *
 *   npm run conformance:client          # 2025 scenarios (@modelcontextprotocol/conformance 0.1.16)
 *   npm run conformance:client-modern   # --modern: 2026-07-28 scenarios (conformance 0.2.0-alpha)
 *   npm run conformance:auth            # --auth: the 2025 suite's OAuth scenarios, as one suite
 *
 * The suite needs Node 22 (it calls fs.globSync): found once, see suite-runner.mjs.
 */
import console from 'node:console';
import process from 'node:process';
import { legacySuite, modernSuite, repoRoot, runOnNode22 } from './suite-runner.mjs';

const CLIENT = 'node test/conformance/gateway-client.mjs';

const LEGACY = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];
const MODERN = [
  'tools_call',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  'json-schema-2020-12-preservation',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'auth/scope-step-up',
];

/** Each run of the suite: its arguments after `client`. */
function runs(mode) {
  if (mode === '--auth') return [[legacySuite, ['--suite', 'auth', '--timeout', '120000']]];
  if (mode === '--modern') {
    return MODERN.map((s) => [
      modernSuite,
      ['--scenario', s, '--spec-version', '2026-07-28', '--timeout', '60000'],
    ]);
  }
  return LEGACY.map((s) => [legacySuite, ['--scenario', s, '--timeout', '60000']]);
}

async function main(argv) {
  const mode = argv[0];
  if (argv.length > 1 || (mode !== undefined && !['--modern', '--auth'].includes(mode))) {
    console.error('usage: node test/conformance/run-client.mjs [--modern | --auth]');
    return 2;
  }
  for (const [suite, args] of runs(mode)) {
    const code = await runOnNode22(suite, ['client', ...args, '--command', CLIENT], {
      cwd: repoRoot,
    });
    if (code !== 0) return code;
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
