import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/output.js';
import {
  createCliHarness,
  FIXTURE,
  oneErrorLine,
  processesWith,
  type CliHarness,
  type ServerJson,
} from './cli-harness.js';

/**
 * Every `coffer mcp` command against the real daemon and the fixture MCP server, in the
 * order a user would run them. Tests in this file share one daemon and build on each
 * other's state.
 */
let cli: CliHarness;
beforeAll(() => {
  cli = createCliHarness();
});
afterAll(async () => {
  await cli.close();
  // `coffer stop` must take the upstream processes with it.
  expect(processesWith(cli.marker)).toEqual([]);
});

async function servers(): Promise<ServerJson[]> {
  const result = await cli.run('mcp', 'list', '--json');
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { servers: ServerJson[] }).servers;
}

async function ok(...args: string[]): Promise<string> {
  const result = await cli.run(...args);
  expect(result.stderr, `coffer ${args.join(' ')}`).toBe('');
  expect(result.code, `coffer ${args.join(' ')}`).toBe(0);
  return result.stdout;
}

describe('coffer mcp', () => {
  it('list says there is nothing yet', async () => {
    expect(await ok('mcp', 'list')).toMatch(/No servers yet/);
    expect(await servers()).toEqual([]);
  });

  it('add registers a local server with --env and --cwd', async () => {
    const out = await ok(
      'mcp',
      'add',
      'fake',
      '--env',
      'FIXTURE_MODE=e2e',
      '--env',
      'EMPTY=',
      '--cwd',
      '/tmp',
      '--',
      'node',
      FIXTURE,
      '--scenario',
      'basic',
      '--name',
      cli.marker,
    );
    expect(out).toBe(
      `Added server "fake" (stdio: node ${FIXTURE} --scenario basic --name ${cli.marker})\n`,
    );
    const [fake] = await servers();
    expect(fake).toMatchObject({
      name: 'fake',
      transport: 'stdio',
      command: 'node',
      args: [FIXTURE, '--scenario', 'basic', '--name', cli.marker],
      env: { FIXTURE_MODE: 'e2e', EMPTY: '' },
      cwd: '/tmp',
      enabled: true,
    });
  });

  it('add registers remote servers with --url, --transport and --header', async () => {
    await ok(
      'mcp',
      'add',
      'remote',
      '--url',
      'http://127.0.0.1:9/mcp',
      '--header',
      'X-Team: blue',
      '--header',
      'X-Empty:',
    );
    await ok('mcp', 'add', 'legacy', '--url', 'http://127.0.0.1:9/sse', '--transport', 'sse');
    // A key in the URL is taken (some servers want it there) and said.
    const keyed = await ok('mcp', 'add', 'keyed', '--url', 'http://127.0.0.1:9/mcp?api_key=k3y1');
    expect(keyed).toContain(
      'the URL holds a credential (its query parameter "api_key"): it is kept in the server\'s definition',
    );
    await ok('mcp', 'remove', 'keyed');
    const byName = new Map((await servers()).map((s) => [s.name, s]));
    expect(byName.get('remote')).toMatchObject({
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { 'X-Team': 'blue', 'X-Empty': '' },
    });
    expect(byName.get('legacy')).toMatchObject({ transport: 'sse', url: 'http://127.0.0.1:9/sse' });
  });

  it('add takes what `claude mcp add` takes: -t, -H, -e, and a URL in place of the command', async () => {
    expect(
      await ok('mcp', 'add', '-t', 'sse', '-H', 'X-Team: red', 'cc', 'http://127.0.0.1:9/sse'),
    ).toBe('Added server "cc" (sse: http://127.0.0.1:9/sse)\n');
    // After --, -e is the command's own (node -e), not Coffer's.
    await ok('mcp', 'add', '-e', 'A=1', 'cl', '--', process.execPath, '-e', '0');
    const byName = new Map((await servers()).map((s) => [s.name, s]));
    expect(byName.get('cc')).toMatchObject({ transport: 'sse', headers: { 'X-Team': 'red' } });
    expect(byName.get('cl')).toMatchObject({ env: { A: '1' }, args: ['-e', '0'] });
    await ok('mcp', 'remove', 'cc');
    await ok('mcp', 'remove', 'cl');
  });

  it('add keeps a secret given as -e or -H in the keychain, and stores no stand-in', async () => {
    const token = 'tok-e2e-4d2f9a';
    const node = ['--', process.execPath, '-e', '0'];
    const run = await cli.run(
      'mcp',
      'add',
      '-e',
      `API_TOKEN=${token}`,
      '-e',
      'A=1',
      'sec',
      ...node,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      "  env API_TOKEN looks like a secret: kept in the keychain, not in the server's definition",
    );
    const url = 'http://127.0.0.1:9/mcp';
    const standIn = await cli.run(
      'mcp',
      'add',
      '-H',
      'Authorization: Bearer <YOUR_TOKEN>',
      'sin',
      url,
    );
    expect(standIn.stdout).toContain(
      '  header Authorization is a stand-in ("Bearer <YOUR_TOKEN>"), not a value: nothing is stored; set it before use',
    );
    expect(standIn.stderr).toContain('fix: coffer secrets set sin --header Authorization');
    const byName = new Map((await servers()).map((s) => [s.name, s]));
    expect(byName.get('sec')).toMatchObject({ env: { A: '1' }, secret_env: ['API_TOKEN'] });
    expect(byName.get('sin')).toMatchObject({ headers: {}, secret_headers: ['Authorization'] });
    const listed = await cli.run('secrets', 'list');
    expect(listed.stdout).toMatch(/sec\s+env\s+API_TOKEN\s+stored/);
    expect(listed.stdout).toMatch(/sin\s+header\s+Authorization\s+MISSING/);
    for (const file of ['coffer.db', 'coffer.db-wal'].map((name) => join(cli.home, name)))
      if (existsSync(file)) expect(readFileSync(file).includes(token)).toBe(false);
    await ok('mcp', 'remove', 'sec');
    await ok('mcp', 'remove', 'sin');
  });

  it("add stores no secret the agent's placeholder stands for, and says to set it", async () => {
    const run = await cli.run(
      'mcp',
      'add',
      '-e',
      'GITHUB_TOKEN=${GITHUB_TOKEN}',
      '-e',
      'ROOT=${HOME}/code',
      'ph',
      '--',
      process.execPath,
      '-e',
      '0',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      '  env GITHUB_TOKEN is filled in by the agent ("${GITHUB_TOKEN}"), which Coffer cannot do: nothing is stored; set it before use',
    );
    expect(run.stderr).toContain('fix: coffer secrets set ph --env GITHUB_TOKEN');
    const server = (await servers()).find((s) => s.name === 'ph');
    expect(server).toMatchObject({ env: { ROOT: '${HOME}/code' }, secret_env: ['GITHUB_TOKEN'] });
    expect((await cli.run('secrets', 'list', '--server', 'ph')).stdout).toMatch(
      /ph\s+env\s+GITHUB_TOKEN\s+MISSING/,
    );
    await ok('mcp', 'remove', 'ph');
  });

  it('add-json takes one entry as claude mcp add-json does, its secret to the keychain', async () => {
    const token = 'tok-json-e2e-7c1b';
    const entry = {
      type: 'stdio',
      command: process.execPath,
      args: ['-e', '0'],
      env: { API_TOKEN: token },
    };
    const run = await cli.run('mcp', 'add-json', 'viajson', JSON.stringify(entry));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('  + viajson: added (stdio: ');
    expect(run.stdout).toContain('      secret env API_TOKEN=*** (to the keychain)');
    const byName = new Map((await servers()).map((s) => [s.name, s]));
    expect(byName.get('viajson')).toMatchObject({
      env: {},
      secret_env: ['API_TOKEN'],
      args: ['-e', '0'],
    });
    // The name is taken now: nothing is added, and the exit code says so.
    const again = await cli.run('mcp', 'add-json', 'viajson', JSON.stringify({ command: 'other' }));
    expect(again.code).toBe(ExitCode.GENERIC);
    expect(again.stdout).toContain('a Coffer server named "viajson" already exists (use --rename)');
    await ok('mcp', 'remove', 'viajson');
  });

  it('list shows a table with every server', async () => {
    const out = await ok('mcp', 'list');
    expect(out).toMatch(/name\s*│\s*transport\s*│\s*enabled\s*│\s*state\s*│\s*tools/);
    expect(out).toMatch(/fake\s*│\s*stdio\s*│\s*yes/);
    expect(out).toMatch(/remote\s*│\s*http\s*│\s*yes/);
    expect(out).toMatch(/legacy\s*│\s*sse/);
  });

  it('show prints one server, and --json its record', async () => {
    const out = await ok('mcp', 'show', 'remote');
    expect(out).toMatch(/^name:\s+remote$/m);
    expect(out).toMatch(/^url:\s+http:\/\/127\.0\.0\.1:9\/mcp$/m);
    expect(out).toMatch(/^header:\s+X-Team: blue$/m);
    const json = JSON.parse(await ok('mcp', 'show', 'fake', '--json')) as { server: ServerJson };
    expect(json.server).toMatchObject({ name: 'fake', cwd: '/tmp', shared: false });
    // `get`, as `claude mcp get` has it, is the same command.
    expect(await ok('mcp', 'get', 'remote')).toBe(out);
  });

  it('share and unshare switch one connection for all agents on and off', async () => {
    expect(await ok('mcp', 'share', 'remote')).toMatch(/^Server "remote" is now shared by all/);
    expect(await ok('mcp', 'show', 'remote')).toMatch(/^shared:\s+yes, one connection/m);
    expect(await ok('mcp', 'list')).toMatch(/remote\s*│\s*http \(shared\)\s*│/);
    await ok('mcp', 'unshare', 'remote');
    expect(await ok('mcp', 'show', 'remote')).toMatch(/^shared:\s+no$/m);
  });

  it('test connects afresh and reports counts', async () => {
    expect(await ok('mcp', 'test', 'fake')).toMatch(
      /^"fake" answered in \d+ ms: \d+ tools, 1 prompt, 1 resource, 1 resource template\n$/,
    );
  });

  it('test of an unreachable server fails with exit 5 and one line', async () => {
    expect((await servers()).find((s) => s.name === 'remote')?.status.state).toBe('idle');
    const result = await cli.run('mcp', 'test', 'remote');
    expect(result.code).toBe(ExitCode.UNAVAILABLE);
    expect(oneErrorLine(result)).toMatch(/Connection test of "remote" failed/);
    // What the test found is the server's state now, as the UI shows it, not "idle".
    const remote = (await servers()).find((s) => s.name === 'remote');
    expect(remote?.status).toMatchObject({
      state: 'error',
      last_error: { code: 'UPSTREAM_UNAVAILABLE' },
    });
  });

  it('refresh of an unreachable server says why once, for every list it stopped', async () => {
    const result = await cli.run('mcp', 'refresh', 'remote');
    expect(result.code).toBe(ExitCode.UNAVAILABLE);
    expect(oneErrorLine(result)).toMatch(
      /^coffer: could not load the tools, prompts, resources and resource templates of "remote": /,
    );
    // The activity log says so too, where it used to record the refresh as "ok".
    const log = await ok('activity', '--json', '--server', 'remote');
    const rows = (JSON.parse(log) as { activity: { action: string; outcome: string }[] }).activity;
    expect(rows.filter((row) => row.action === 'server.refresh')).toEqual([
      expect.objectContaining({ outcome: 'error', error_code: 'UPSTREAM_UNAVAILABLE' }),
    ]);
  });

  it('refresh lists the capabilities again', async () => {
    expect(await ok('mcp', 'refresh', 'fake')).toMatch(
      /^Refreshed "fake": \d+ tools, 1 prompt, 1 resource, 1 resource template\n$/,
    );
    // Listed, `show` counts them too, in words ("1 prompt", not "1 prompts").
    expect(await ok('mcp', 'show', 'fake')).toMatch(
      /^capabilities:\s+\d+ tools, 1 prompt, 1 resource, 1 resource template$/m,
    );
  });

  it('list --tree shows the capabilities under each server', async () => {
    const out = await ok('mcp', 'list', '--tree');
    expect(out).toMatch(/^fake \(stdio, enabled, \w+\)$/m);
    expect(out).toMatch(/^│ {2}├─ echo$/m);
    expect(out).toMatch(/greeting/);
    expect(out).toMatch(/fixture:\/\/static\/hello\.txt/);
    expect(out).toMatch(/fixture:\/\/items\/\{id\}/);
    // An unreachable server says so instead of looking empty.
    expect(out).toMatch(/remote \(http[^]*could not load/);
  });

  it('list <name> shows that server alone, as a row or with --tree its capabilities', async () => {
    const row = await ok('mcp', 'list', 'fake');
    expect(row).toMatch(/fake\s*│\s*stdio\s*│\s*yes/);
    expect(row).not.toMatch(/remote|legacy/);
    const tree = await ok('mcp', 'list', 'fake', '--tree');
    expect(tree).toMatch(/^fake \(stdio, enabled, \w+\)$/m);
    expect(tree).toMatch(/^│ {2}├─ echo$/m);
    expect(tree).not.toMatch(/remote|legacy/);
    const json = JSON.parse(await ok('mcp', 'list', 'fake', '--json')) as { servers: ServerJson[] };
    expect(json.servers.map((server) => server.name)).toEqual(['fake']);
    const typo = await cli.run('mcp', 'list', 'fak', '--tree');
    expect(typo.code).toBe(ExitCode.NOT_FOUND);
    expect(oneErrorLine(typo)).toMatch(/No server named "fak" \(did you mean "fake"\?/);
  });

  it('disable --tool/--prompt/--resource switches single capabilities off', async () => {
    const out = await ok(
      'mcp',
      'disable',
      'fake',
      '--tool',
      'echo',
      '--tool',
      'fail',
      '--prompt',
      'greeting',
      '--resource',
      'fixture://static/hello.txt',
      '--resource',
      'fixture://items/{id}',
    );
    expect(out.trimEnd().split('\n')).toEqual([
      'Disabled tools "echo", "fail" on "fake"',
      'Disabled prompt "greeting" on "fake"',
      'Disabled resource "fixture://static/hello.txt" on "fake"',
      'Disabled resource template "fixture://items/{id}" on "fake"',
    ]);
    const tree = await ok('mcp', 'list', '--tree');
    expect(tree).toMatch(/echo \(disabled\)/);
    expect(tree).toMatch(/fail \(disabled\)/);
    expect(tree).toMatch(/greeting \(disabled\)/);
    expect(tree).toMatch(/fixture:\/\/static\/hello\.txt \(disabled\)/);
    expect(tree).toMatch(/fixture:\/\/items\/\{id\} \(disabled\)/);
    expect(tree).toMatch(/^│ {2}├─ progress$/m);
  });

  it('enable --tool switches one back on', async () => {
    expect(await ok('mcp', 'enable', 'fake', '--tool', 'echo')).toBe(
      'Enabled tool "echo" on "fake"\n',
    );
    const json = JSON.parse(await ok('mcp', 'list', '--tree', '--json')) as {
      servers: {
        name: string;
        capabilities?: { tools: { items: { key: string; enabled: boolean }[] } };
      }[];
    };
    const tools = json.servers.find((s) => s.name === 'fake')?.capabilities?.tools.items ?? [];
    expect(tools.find((t) => t.key === 'echo')?.enabled).toBe(true);
    expect(tools.find((t) => t.key === 'fail')?.enabled).toBe(false);
  });

  it('warns of a name the listed server does not have, and keeps the choice', async () => {
    const typo = await cli.run('mcp', 'disable', 'fake', '--tool', 'ech', '--prompt', 'nosuch');
    expect(typo.code, typo.stderr).toBe(0);
    expect(typo.stderr.trimEnd().split('\n')).toEqual([
      'coffer: warning: "fake" lists no tool "ech" (did you mean "echo"?); the choice is kept and applies if it appears',
      'coffer: warning: "fake" lists no prompt "nosuch"; the choice is kept and applies if it appears',
    ]);
    // echo itself is untouched by the typo.
    expect(await ok('mcp', 'list', '--tree')).toMatch(/^│ {2}├─ echo$/m);
  });

  it('warns of a policy for a tool the listed server does not have, and keeps it', async () => {
    const typo = await cli.run('mcp', 'policy', 'fake', '--tool', 'ech', 'deny');
    expect(typo.code, typo.stderr).toBe(0);
    expect(typo.stdout).toBe('Tool "ech" of "fake": deny\n');
    expect(typo.stderr).toBe(
      'coffer: warning: "fake" lists no tool "ech" (did you mean "echo"?); the choice is kept and applies if it appears\n',
    );
    expect(await ok('mcp', 'policy', 'fake')).toMatch(/^ {2}allow echo \(default\)$/m);
    expect((await cli.run('mcp', 'policy', 'fake', '--tool', 'ech', 'default')).code).toBe(0);
  });

  it("takes the names agents see (fake__echo, coffer://fake/…) as the server's own", async () => {
    const out = await ok(
      'mcp',
      'disable',
      'fake',
      '--tool',
      'fake__echo',
      '--resource',
      'coffer://fake/fixture://static/hello.txt',
    );
    expect(out.trimEnd().split('\n')).toEqual([
      'Disabled tool "echo" on "fake"',
      'Disabled resource "fixture://static/hello.txt" on "fake"',
      '  "fake__echo" is what agents see; "fake" calls it "echo"',
      '  "coffer://fake/fixture://static/hello.txt" is what agents see; "fake" calls it "fixture://static/hello.txt"',
    ]);
    const tree = await ok('mcp', 'list', '--tree');
    expect(tree).toMatch(/echo \(disabled\)/);
    expect(tree).toMatch(/fixture:\/\/static\/hello\.txt \(disabled\)/);
    expect(tree).not.toMatch(/fake__echo/);
    expect(await ok('mcp', 'enable', 'fake', '--tool', 'fake__echo')).toBe(
      'Enabled tool "echo" on "fake"\n  "fake__echo" is what agents see; "fake" calls it "echo"\n',
    );
    expect(await ok('mcp', 'list', '--tree')).toMatch(/^│ {2}├─ echo$/m);
    expect(await ok('mcp', 'policy', 'fake', '--tool', 'fake__echo', 'deny')).toBe(
      'Tool "echo" of "fake": deny\n  "fake__echo" is what agents see; "fake" calls it "echo"\n',
    );
    expect(await ok('mcp', 'policy', 'fake')).toMatch(/^ {2}deny {2}echo \(set\)$/m);
    expect(await ok('mcp', 'policy', 'fake', '--tool', 'echo', 'default')).toBe(
      'Tool "echo" of "fake": as its annotations say\n',
    );
  });

  it('disable and enable switch a whole server', async () => {
    expect(await ok('mcp', 'disable', 'fake')).toBe('Disabled server "fake"\n');
    expect((await servers()).find((s) => s.name === 'fake')?.enabled).toBe(false);
    expect(await ok('mcp', 'enable', 'fake')).toBe('Enabled server "fake"\n');
    expect((await servers()).find((s) => s.name === 'fake')?.enabled).toBe(true);
  });

  it('add warns of a server that starts exactly as one Coffer has, and adds it all the same', async () => {
    const url = ['--url', 'http://127.0.0.1:9/mcp'];
    const twin = await cli.run(
      'mcp',
      'add',
      'twin',
      ...url,
      '--header',
      'X-Empty:',
      '--header',
      'X-Team: blue',
    );
    expect(twin.code, twin.stderr).toBe(0);
    expect(twin.stderr).toBe(
      'coffer: warning: twin: starts the same server as "remote" (same command and settings): agents list its tools twice\n' +
        '  fix: keep one: coffer mcp remove twin\n',
    );
    expect(await ok('mcp', 'remove', 'twin')).toBe('Removed server "twin"\n');
    // Another header value is another server: no warning.
    expect(await ok('mcp', 'add', 'cousin', ...url, '--header', 'X-Team: red')).toContain('Added');
    expect(await ok('mcp', 'remove', 'cousin')).toBe('Removed server "cousin"\n');
  });

  it('add does not warn of two accounts of one service, whose secret headers differ', async () => {
    const url = ['--url', 'https://accounts.example.com/mcp'];
    const bearer = (who: string) => ['--header', `Authorization: Bearer ${who}-${'k'.repeat(24)}`];
    expect((await cli.run('mcp', 'add', 'work', ...url, ...bearer('work'))).code).toBe(0);
    const personal = await cli.run('mcp', 'add', 'personal', ...url, ...bearer('personal'));
    expect(personal.code, personal.stderr).toBe(0);
    expect(personal.stderr).not.toContain('starts the same server');
    // The same credential again is the same account served twice: still said.
    const again = await cli.run('mcp', 'add', 'work-again', ...url, ...bearer('work'));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      'coffer: warning: work-again: starts the same server as "work" (same command and settings): agents list its tools twice',
    );
    for (const name of ['work', 'personal', 'work-again']) await ok('mcp', 'remove', name);
  });

  it('remove unregisters a server', async () => {
    expect(await ok('mcp', 'remove', 'legacy')).toBe('Removed server "legacy"\n');
    expect((await servers()).map((s) => s.name)).toEqual(['fake', 'remote']);
  });

  it.each([
    ['show', ['mcp', 'show', 'legacy']],
    ['remove', ['mcp', 'remove', 'legacy']],
    ['enable', ['mcp', 'enable', 'legacy']],
    ['disable', ['mcp', 'disable', 'legacy']],
    ['disable --tool', ['mcp', 'disable', 'legacy', '--tool', 'echo']],
    ['refresh', ['mcp', 'refresh', 'legacy']],
    ['test', ['mcp', 'test', 'legacy']],
  ])('%s of an unknown server fails with exit 3 and one line', async (_label, args) => {
    const result = await cli.run(...args);
    expect(result.code).toBe(ExitCode.NOT_FOUND);
    expect(oneErrorLine(result)).toMatch(/No server named "legacy".*coffer mcp list/);
  });

  it.each([
    ['show', ['mcp', 'show', 'remot']],
    ['edit', ['mcp', 'edit', 'remot', '--header', 'X-Team: red']],
    ['disable --tool', ['mcp', 'disable', 'remot', '--tool', 'echo']],
    ['test', ['mcp', 'test', 'remot']],
    ['policy', ['mcp', 'policy', 'remot']],
  ])('%s of a mistyped server name says the one it most likely meant', async (_label, args) => {
    const result = await cli.run(...args);
    expect(result.code).toBe(ExitCode.NOT_FOUND);
    expect(oneErrorLine(result)).toMatch(
      /^coffer: No server named "remot" \(did you mean "remote"\? Otherwise see .*coffer mcp list/,
    );
  });
});
