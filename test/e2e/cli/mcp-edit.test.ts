import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCliHarness,
  FIXTURE,
  oneErrorLine,
  processesWith,
  type CliHarness,
  type ServerJson,
} from './cli-harness.js';

/**
 * `coffer mcp edit`: a registered server changed in place, by the rules of `coffer mcp
 * add`, its tool choices and policies kept (removing and adding it again forgets them).
 */
let cli: CliHarness;

beforeAll(() => {
  cli = createCliHarness();
});
afterAll(async () => {
  await cli.close();
  expect(processesWith(cli.marker)).toEqual([]);
});

async function shown(name: string): Promise<ServerJson> {
  const result = await cli.run('mcp', 'show', name, '--json');
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { server: ServerJson }).server;
}

async function ok(...args: string[]): Promise<string> {
  const result = await cli.run(...args);
  expect(result.code, `coffer ${args.join(' ')}: ${result.stderr}`).toBe(0);
  return result.stdout;
}

describe('coffer mcp edit', () => {
  it('changes env and command in place, keeping tool choices and policies', async () => {
    const fixture = [FIXTURE, '--scenario', 'basic', '--name', cli.marker];
    await ok('mcp', 'add', 'fx', '-e', 'A=1', '-e', 'KEEP=yes', '--', process.execPath, ...fixture);
    await ok('mcp', 'disable', 'fx', '--tool', 'echo');
    await ok('mcp', 'policy', 'fx', '--tool', 'fail', 'deny');

    expect(await ok('mcp', 'edit', 'fx', '-e', 'B=2', '--unset-env', 'A')).toMatch(
      /^Changed server "fx" \(stdio: /,
    );
    expect((await shown('fx')).env).toEqual({ KEEP: 'yes', B: '2' });

    await ok('mcp', 'edit', 'fx', '--', process.execPath, ...fixture, '--init-delay-ms', '1');
    const edited = await shown('fx');
    expect(edited.args).toEqual([...fixture, '--init-delay-ms', '1']);
    expect(edited.env).toEqual({ KEEP: 'yes', B: '2' });

    expect(await ok('mcp', 'list', '--tree')).toMatch(/echo \(disabled\)/);
    expect(await ok('mcp', 'policy', 'fx')).toMatch(/^ {2}deny {2}fail \(set\)$/m);
    expect(await ok('mcp', 'test', 'fx')).toMatch(/^"fx" answered in \d+ ms: \d+ tools/);

    await ok('mcp', 'edit', 'fx', '--cwd', tmpdir());
    expect((await shown('fx')).cwd).toBe(tmpdir());
    await ok('mcp', 'edit', 'fx', '--unset-cwd');
    expect((await shown('fx')).cwd).toBeUndefined();
    expect(await ok('mcp', 'test', 'fx')).toMatch(/^"fx" answered in \d+ ms/);
  });

  it('keeps a secret given plainly in the keychain, and --unset-env removes it from both', async () => {
    const token = `ghp_${'a1B2'.repeat(9)}`;
    const out = await ok('mcp', 'edit', 'fx', '-e', `GITHUB_TOKEN=${token}`);
    expect(out).toContain('env GITHUB_TOKEN looks like a secret: kept in the keychain');
    let server = await shown('fx');
    expect(server.secret_env).toEqual(['GITHUB_TOKEN']);
    expect(JSON.stringify(server)).not.toContain(token);

    const kept = await ok('mcp', 'edit', 'fx', '-e', 'C=3');
    expect(kept).not.toContain('deleted');
    expect((await shown('fx')).secret_env).toEqual(['GITHUB_TOKEN']);
    expect(await ok('secrets', 'list', '--server', 'fx')).toMatch(
      /fx\s+env\s+GITHUB_TOKEN\s+stored/,
    );
    const unset = await ok('mcp', 'edit', 'fx', '--unset-env', 'GITHUB_TOKEN');
    // Named as `secrets set` names it: the OS keychain, or the file that stands in for one.
    const store = `(the OS keychain|${cli.home}/secrets\\.json)`;
    expect(unset).toMatch(new RegExp(`\\n {2}deleted from ${store}: env "GITHUB_TOKEN"\\n`));
    expect(await ok('secrets', 'list', '--server', 'fx')).not.toContain('GITHUB_TOKEN');
    server = await shown('fx');
    expect(server.secret_env).toEqual([]);
    expect(server.env).toEqual({ KEEP: 'yes', B: '2', C: '3' });
  });

  it('moves a server between local and remote, keeping nothing of the other kind', async () => {
    await ok('mcp', 'edit', 'fx', '--url', 'http://127.0.0.1:9/mcp', '-H', 'X-Team: blue');
    let server = await shown('fx');
    expect(server).toMatchObject({ transport: 'http', url: 'http://127.0.0.1:9/mcp', args: [] });
    expect(server.headers).toEqual({ 'X-Team': 'blue' });
    expect(server.env).toEqual({});
    expect(server.command).toBeUndefined();

    await ok('mcp', 'edit', 'fx', '-t', 'sse', '-H', 'X-Other: 1', '--unset-header', 'x-team');
    server = await shown('fx');
    expect(server).toMatchObject({ transport: 'sse', url: 'http://127.0.0.1:9/mcp' });
    expect(server.headers).toEqual({ 'X-Other': '1' });

    await ok('mcp', 'edit', 'fx', '--', process.execPath, FIXTURE, '--name', cli.marker);
    server = await shown('fx');
    expect(server).toMatchObject({ transport: 'stdio', command: process.execPath, headers: {} });
    expect(server.url).toBeUndefined();
  });

  it.each([
    ['nothing to change', ['mcp', 'edit', 'fx'], 2, /Say what to change of "fx"/],
    ['an env it does not have', ['mcp', 'edit', 'fx', '--unset-env', 'NOPE'], 2, /no env NOPE/],
    [
      'a folder both set and unset',
      ['mcp', 'edit', 'fx', '--cwd', '/tmp', '--unset-cwd'],
      2,
      /Give --cwd or --unset-cwd, not both/,
    ],
    [
      'env on a remote change',
      ['mcp', 'edit', 'fx', '--url', 'http://127.0.0.1:9/x', '-e', 'A=1'],
      2,
      /--env and --cwd apply to local/,
    ],
    [
      'a server that is not there',
      ['mcp', 'edit', 'nope', '-e', 'A=1'],
      3,
      /No server named "nope"/,
    ],
  ])('refuses %s, changing nothing', async (_what, args, code, message) => {
    const before = await shown('fx');
    const result = await cli.run(...args);
    expect(result.code).toBe(code);
    expect(oneErrorLine(result)).toMatch(message);
    expect(await shown('fx')).toEqual(before);
  });

  it("says when a new URL sends the server's stored secret headers to another origin", async () => {
    const header = 'Authorization: Bearer tok-e2e-moved-7c1d9a';
    await ok('mcp', 'add', 'keyed', '--url', 'http://127.0.0.1:9/a/mcp', '-H', header);
    expect((await shown('keyed')).secret_headers).toEqual(['Authorization']);
    const samePlace = await ok('mcp', 'edit', 'keyed', '--url', 'http://127.0.0.1:9/b/mcp');
    expect(samePlace).not.toContain('secret headers');
    const moved = await ok('mcp', 'edit', 'keyed', '--url', 'http://127.0.0.1:10/mcp');
    expect(moved).toContain(
      '\n  its secret headers (Authorization) now go to http://127.0.0.1:10, not http://127.0.0.1:9: if that is not the same service, remove them (coffer mcp edit keyed --unset-header Authorization)\n',
    );
    await ok('mcp', 'remove', 'keyed');
  });
});
