import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/output.js';
import { createCliHarness, oneErrorLine, type CliHarness } from './cli-harness.js';

/**
 * Bad input ends with one `coffer: …` line, a non-zero exit code, and no daemon started
 * (it is refused locally). Only the duplicate needs the daemon to tell.
 */
let cli: CliHarness;
beforeAll(() => {
  cli = createCliHarness();
});
afterAll(async () => {
  await cli.close();
});

const refusedLocally: [string, string[], RegExp][] = [
  ['a bad name', ['mcp', 'add', 'Bad_Name', '--', 'node'], /Invalid server name "Bad_Name"/],
  ['a name with "__"', ['mcp', 'add', 'a__b', '--', 'node'], /must not contain "__"/],
  ['a name too long', ['mcp', 'add', 'x'.repeat(33), '--', 'node'], /limit is 32/],
  ['a missing command', ['mcp', 'add', 'files'], /Missing the command to run for "files"/],
  [
    'both --url and a command',
    ['mcp', 'add', 'files', '--url', 'http://127.0.0.1:9/mcp', '--', 'node'],
    /either --url or a command/,
  ],
  ['a malformed URL', ['mcp', 'add', 'files', '--url', 'not a url'], /Invalid --url "not a url"/],
  ['a non-http URL', ['mcp', 'add', 'files', '--url', 'ftp://h/x'], /http:\/\/ or https:\/\//],
  [
    'an unknown transport',
    ['mcp', 'add', 'files', '--url', 'http://h/', '--transport', 'ws'],
    /Invalid --transport "ws"/,
  ],
  ['--env without =', ['mcp', 'add', 'files', '--env', 'TOKEN', '--', 'node'], /--env "TOKEN"/],
  [
    'a bad --env name',
    ['mcp', 'add', 'files', '--env', 'MY-VAR=1', '--', 'node'],
    /Invalid --env name "MY-VAR"/,
  ],
  [
    '--header without a colon',
    ['mcp', 'add', 'files', '--url', 'http://h/', '--header', 'X-Team blue'],
    /--header "X-Team blue": expected "Name: value"/,
  ],
  [
    'a bad --header name',
    ['mcp', 'add', 'files', '--url', 'http://h/', '--header', 'X Team: blue'],
    /Invalid --header name "X Team"/,
  ],
  [
    '--env on a remote server',
    ['mcp', 'add', 'files', '--url', 'http://h/', '--env', 'A=1'],
    /apply to local \(stdio\) servers/,
  ],
  [
    '--header on a local server',
    ['mcp', 'add', 'files', '--header', 'A: 1', '--', 'node'],
    /apply to --url servers/,
  ],
  [
    "an option of the server's command without --",
    ['mcp', 'add', 'files', 'npx', '-y', 'pkg'],
    /unknown option '-y' \(if it is the server's, put -- before its command: coffer mcp add <name> -- <command>/,
  ],
  [
    '--env on a URL in place of the command',
    ['mcp', 'add', 'files', '--env', 'A=1', 'http://h/'],
    /apply to local \(stdio\) servers/,
  ],
  [
    'add-json with JSON that does not parse',
    ['mcp', 'add-json', 'x', '{command: 1}'],
    /^coffer: The server's entry is not valid JSON \(at position 1\) \(quote it for the shell/,
  ],
  ['add-json with a JSON list', ['mcp', 'add-json', 'x', '[1]'], /is not an object/],
  [
    'add-json with a whole mcpServers block',
    ['mcp', 'add-json', 'x', '{"mcpServers": {"x": {"command": "npx"}}}'],
    /is a "mcpServers" block, not one entry \(give the entry inside it, or import the whole block: coffer agents import/,
  ],
  ['add-json with a bad name', ['mcp', 'add-json', 'X Y', '{}'], /Invalid server name "X Y"/],
  ['show with a bad name', ['mcp', 'show', 'NO'], /Invalid server name "NO"/],
  ['list with a bad name', ['mcp', 'list', 'NO'], /Invalid server name "NO"/],
  [
    'login with a --timeout that is no number',
    ['mcp', 'login', 'docs', '--timeout', 'soon'],
    /--timeout must be a whole number of seconds, not "soon"/,
  ],
  ['remove with a bad name', ['mcp', 'remove', 'no!'], /Invalid server name/],
  ['enable with a bad name', ['mcp', 'enable', 'no_'], /must not end with "_"/],
  ['an empty --tool', ['mcp', 'disable', 'files', '--tool', ''], /empty --tool/],
  ['refresh with a bad name', ['mcp', 'refresh', 'x__y'], /must not contain "__"/],
  ['test with a bad name', ['mcp', 'test', 'A'], /Invalid server name "A"/],
  [
    'secrets remove without --env or --header, with an example of remove',
    ['secrets', 'remove', 'github'],
    /exactly one of --env NAME or --header NAME \(e\.g\. `coffer secrets remove github --env GITHUB_TOKEN`\)$/,
  ],
  [
    'secrets set with both --env and --header',
    ['secrets', 'set', 'github', '--env', 'A', '--header', 'B'],
    /\(e\.g\. `coffer secrets set github --env GITHUB_TOKEN`\)$/,
  ],
];

describe('bad input refused before any daemon starts', () => {
  it.each(refusedLocally)('refuses %s', async (_label, args, message) => {
    const result = await cli.run(...args);
    expect(result.code).toBe(ExitCode.USAGE);
    expect(oneErrorLine(result)).toMatch(message);
    expect(result.stdout).toBe('');
    expect(existsSync(join(cli.home, 'daemon.json'))).toBe(false);
  });
});

describe('help', () => {
  it('says the defaults of login and start alike, as numbers', async () => {
    const login = await cli.run('mcp', 'login', '--help');
    expect(login.stdout.replace(/\s+/g, ' ')).toContain(
      '--timeout <seconds> how long to wait for the browser (default: 300)',
    );
    const start = await cli.run('start', '--help');
    expect(start.stdout).toMatch(/\(default: 60\)/);
  });
});

describe('input only the daemon can judge', () => {
  it('refuses a duplicate name (exit 4) and keeps the first definition', async () => {
    const first = await cli.run('mcp', 'add', 'files', '--', 'node', 'first.js');
    expect(first.code).toBe(0);
    const duplicate = await cli.run('mcp', 'add', 'files', '--', 'node', 'second.js');
    expect(duplicate.code).toBe(ExitCode.CONFLICT);
    expect(oneErrorLine(duplicate)).toMatch(/"files" already exists.*coffer mcp remove files/);
    const list = await cli.run('mcp', 'list', '--json');
    const { servers } = JSON.parse(list.stdout) as { servers: { name: string; args: string[] }[] };
    expect(servers.map((s) => [s.name, s.args])).toEqual([['files', ['first.js']]]);
  });

  it("refuses the daemon's own endpoint as a server (exit 2), by any loopback name", async () => {
    const { port } = JSON.parse(readFileSync(join(cli.home, 'daemon.json'), 'utf8')) as {
      port: number;
    };
    for (const url of [
      `http://127.0.0.1:${port}/mcp`,
      `http://localhost:${port}/servers/files/mcp`,
    ]) {
      const self = await cli.run('mcp', 'add', 'self', '--url', url);
      expect(self.code, self.stderr).toBe(ExitCode.USAGE);
      expect(oneErrorLine(self)).toMatch(
        `${url} is this Coffer daemon: it cannot be its own server`,
      );
    }
  });

  it('wrote nothing for any refused input', async () => {
    const list = await cli.run('mcp', 'list', '--json');
    expect(list.code).toBe(0);
    const { servers } = JSON.parse(list.stdout) as { servers: { name: string }[] };
    expect(servers.map((s) => s.name)).toEqual(['files']);
  });
});
