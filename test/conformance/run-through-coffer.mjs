#!/usr/bin/env node
/**
 * Runs the official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16,
 * `--suite all`) THROUGH Coffer: a daemon with its own temporary home serves the fixture's
 * `conformance` scenario, registered as a stdio upstream, on `/servers/fixture/mcp`.
 *
 *   npm run conformance:coffer
 *   node test/conformance/run-through-coffer.mjs --scenario tools-call-with-progress --verbose
 *
 * `--modern` runs the suite's 2026-07-28 line instead (the `conformance-2026` alias of
 * 0.2.0-alpha.12, started by its entry file because both packages install a bin named
 * `conformance`): `--requirements 2026-07-28` on `/servers/fixture/mcp` and then on `/mcp`,
 * each against its expected-failures baseline (test/conformance/modern-*.yaml, one reason
 * per entry), both on the same daemon, after the input-required scenarios the era bridge
 * passes, one by one (see BRIDGED), the Skills extension's scenarios on `/mcp` (see
 * SKILLS) and the tasks extension's on `/servers/tasks/mcp` (see TASKS). The bridged and requirements runs each start on a fresh fixture connection
 * (the fixture is disabled and enabled again), so no call an earlier run left waiting for
 * its client's answer meets it. Extra arguments replace that selection and run on
 * `/servers/fixture/mcp` only (`--path /mcp` picks the aggregated endpoint):
 *
 *   npm run conformance:modern
 *   node test/conformance/run-through-coffer.mjs --modern --scenario caching --verbose
 *
 * The suite's client sends no Authorization header, so a tiny loopback proxy adds the bearer
 * token and passes everything else (Host, Origin included) through untouched: the suite's
 * DNS-rebinding scenario still meets Coffer's own check. Coffer has no switch that turns its
 * auth off, and this script does not add one.
 */
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { legacySuite, modernSuite, repoRoot, runSuite } from './suite-runner.mjs';

const coffer = join(repoRoot, 'bin', 'coffer.js');
const fixture = join(repoRoot, 'dist', 'test', 'fixtures', 'fake-mcp-server.js');
const MODERN_RUNS = [
  { path: '/servers/fixture/mcp', baseline: 'modern-passthrough.yaml' },
  { path: '/mcp', baseline: 'modern-aggregate.yaml' },
];

async function startDaemon(env) {
  const result = spawnSync(process.execPath, [coffer, 'start'], { env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`coffer start failed: ${result.stderr}`);
  const info = JSON.parse(readFileSync(join(env.COFFER_HOME, 'daemon.json'), 'utf8'));
  return { port: info.port, token: info.token };
}

/**
 * The upstreams: the fixture's conformance scenario; a server of skills (the SDK v2's
 * own Skills extension, test/fixtures/skills-mcp-server.mjs), whose skills the suite's
 * Skills scenarios read on `/mcp` under `skill://skills/…`; and a 2025-11-25 server of
 * task tools named as the suite's tasks scenarios call them
 * (test/fixtures/task-tools-server.mjs).
 */
const UPSTREAMS = [
  {
    name: 'fixture',
    transport: 'stdio',
    command: process.execPath,
    args: [fixture, '--scenario', 'conformance', '--name', 'mcp-conformance-test-server'],
  },
  {
    name: 'skills',
    transport: 'stdio',
    command: process.execPath,
    args: [join(repoRoot, 'test', 'fixtures', 'skills-mcp-server.mjs')],
  },
  {
    name: 'tasks',
    transport: 'stdio',
    command: process.execPath,
    args: [join(repoRoot, 'test', 'fixtures', 'task-tools-server.mjs')],
  },
];

async function register(daemon) {
  for (const body of UPSTREAMS) {
    const response = await globalThis.fetch(`http://127.0.0.1:${daemon.port}/api/v1/servers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${daemon.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`register failed: ${await response.text()}`);
  }
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

/** The suite runs this invocation asks for, in order; every run happens even if one fails. */
function plan(argv) {
  if (!argv.includes('--modern')) {
    const selection = argv.length > 0 ? argv : ['--suite', 'all'];
    return [{ entry: legacySuite, path: '/servers/fixture/mcp', selection }];
  }
  const rest = argv.filter((arg) => arg !== '--modern');
  const at = rest.indexOf('--path');
  if (at >= 0) {
    const path = rest[at + 1] ?? '/servers/fixture/mcp';
    rest.splice(at, 2);
    if (rest.length > 0) return [{ entry: modernSuite, path, selection: rest }];
    return MODERN_RUNS.filter((run) => run.path === path).map((run) => modernRun(run));
  }
  if (rest.length > 0) return [{ entry: modernSuite, path: MODERN_RUNS[0].path, selection: rest }];
  return [
    ...BRIDGED.map(bridgedRun),
    ...SKILLS.map(skillsRun),
    ...TASKS.map(tasksRun),
    ...MODERN_RUNS.map((run) => modernRun(run)),
  ];
}

/**
 * The Skills extension's server scenarios (SEP-2640), not part of the requirements runs:
 * on `/mcp`, over the skills upstream's skills, each expected to pass (docs/SKILLS.md).
 */
const SKILLS = ['skills-enumeration', 'skills-manifest', 'skills-directory'];

function skillsRun(name) {
  return { entry: modernSuite, path: '/mcp', selection: ['--scenario', `sep-2640-${name}`] };
}

/**
 * The tasks extension's server scenarios (SEP-2663), not scored by the requirements runs
 * (where the fixture has none of the tools they call): on `/servers/tasks/mcp`, over the
 * task tools' 2025-11-25 tasks, each expected to pass (docs/TASKS.md). Left out:
 * tasks-mrtr-composition, whose tool first asks an input_required question and then
 * becomes a task within one call, which a 2025-11-25 upstream cannot express (its tool
 * either runs as a task from the start or not at all), and tasks-status-notifications,
 * which the suite itself skips.
 */
const TASKS = [
  'lifecycle',
  'capability-negotiation',
  'wire-fields',
  'request-state-removal',
  'mrtr-input',
  'request-headers',
  'dispatch-and-envelope',
  'required-task-error',
];

function tasksRun(name) {
  return {
    entry: modernSuite,
    path: '/servers/tasks/mcp',
    selection: ['--scenario', `tasks-${name}`],
  };
}

/**
 * The input-required scenarios the era bridge passes, each run on its own first (on a
 * fresh fixture connection) and expected to pass. They pass in the requirements runs that
 * follow too, where a scenario that stops before its retry (server-stateless's
 * test_streaming_elicitation probe, basic-elicitation) leaves its call parked on the
 * shared fixture connection: a parked call waits on its answers, so a new question is
 * the one running call's (src/gateway/input-bridge.ts, `waiting`).
 */
const BRIDGED = [
  'basic-sampling',
  'basic-list-roots',
  'request-state',
  'multiple-input-requests',
  'multi-round',
  'missing-input-response',
  'non-tool-request',
  'result-type',
  'unsupported-methods',
  'tampered-state',
  'capability-check',
  'ignore-extra-params',
  'validate-input',
];

function bridgedRun(name) {
  const selection = ['--scenario', `input-required-result-${name}`];
  return { entry: modernSuite, path: MODERN_RUNS[0].path, selection, restart: true };
}

/** Disabling the fixture ends its connection, and with it any call a scenario left parked. */
async function restartFixture(daemon) {
  for (const action of ['disable', 'enable']) {
    const response = await globalThis.fetch(
      `http://127.0.0.1:${daemon.port}/api/v1/servers/fixture/${action}`,
      { method: 'POST', headers: { authorization: `Bearer ${daemon.token}` } },
    );
    if (response.status !== 200) throw new Error(`${action} failed: ${await response.text()}`);
  }
}

function modernRun({ path, baseline }) {
  const file = join(repoRoot, 'test', 'conformance', baseline);
  const selection = ['--requirements', '2026-07-28', '--expected-failures', file];
  return { entry: modernSuite, path, selection, restart: true };
}

async function runPlan(daemon, origin, argv) {
  let worst = 0;
  for (const run of plan(argv)) {
    if (run.restart === true) await restartFixture(daemon);
    const code = await runSuite(run.entry, `${origin}${run.path}`, run.selection);
    worst = Math.max(worst, code);
  }
  return worst;
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
    const origin = `http://127.0.0.1:${proxy.address().port}`;
    return await runPlan(daemon, origin, process.argv.slice(2));
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
