#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16,
 * `--suite all`) THROUGH Coffer: a daemon with its own temporary home serves the fixture's
 * `conformance` scenario, registered as a stdio upstream, on `/servers/fixture/mcp`.
 *
 *   npm run conformance:coffer
 *   node test/conformance/run-through-coffer.mjs --scenario tools-call-with-progress --verbose
 *
 * The suite's client sends no Authorization header, so a tiny loopback proxy adds the bearer
 * token and passes everything else (Host, Origin included) through untouched: the suite's
 * DNS-rebinding scenario still meets Coffer's own check. Coffer has no switch that turns its
 * auth off, and this script does not add one.
 */
import { spawn, spawnSync } from 'node:child_process';
import console from 'node:console';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const coffer = join(root, 'bin', 'coffer.js');
const fixture = join(root, 'dist', 'test', 'fixtures', 'fake-mcp-server.js');
const suiteBin = join(root, 'node_modules', '.bin', 'conformance');

async function startDaemon(env) {
  const result = spawnSync(process.execPath, [coffer, 'start'], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`coffer start failed: ${result.stderr}`);
  const info = JSON.parse(readFileSync(join(env.COFFER_HOME, 'daemon.json'), 'utf8'));
  return { port: info.port, token: info.token };
}

async function register(daemon) {
  const body = {
    name: 'fixture',
    transport: 'stdio',
    command: process.execPath,
    args: [fixture, '--scenario', 'conformance', '--name', 'mcp-conformance-test-server'],
  };
  const response = await globalThis.fetch(`http://127.0.0.1:${daemon.port}/api/v1/servers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${daemon.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`register failed: ${await response.text()}`);
}

/** Forwards every request to the daemon with the bearer added; nothing else changes. */
function startProxy(daemon) {
  const proxy = createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${daemon.token}` };
    const upstream = httpRequest(
      { host: '127.0.0.1', port: daemon.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

function runSuite(url, extraArgs) {
  const selection = extraArgs.length > 0 ? extraArgs : ['--suite', 'all'];
  const args = ['-y', 'node@22', suiteBin, 'server', '--url', url, ...selection];
  console.log(`> npx ${args.join(' ')}`);
  const suite = spawn('npx', args, { stdio: 'inherit' });
  return new Promise((resolve) => {
    suite.once('error', () => resolve(1));
    suite.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  if (!existsSync(fixture)) {
    console.error(`missing ${fixture}: run \`npm run build\` first`);
    return 1;
  }
  const home = mkdtempSync(join(tmpdir(), 'coffer-conformance-'));
  const env = { ...process.env, COFFER_HOME: home, COFFER_PORT_RANGE: '38100-38140' };
  let proxy;
  try {
    const daemon = await startDaemon(env);
    await register(daemon);
    proxy = await startProxy(daemon);
    const url = `http://127.0.0.1:${proxy.address().port}/servers/fixture/mcp`;
    return await runSuite(url, process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    proxy?.close();
    // `coffer stop` returns once the daemon (and with it its upstreams) has exited.
    spawnSync(process.execPath, [coffer, 'stop'], { env, stdio: 'inherit' });
    rmSync(home, { recursive: true, force: true });
  }
}

process.exitCode = await main();
