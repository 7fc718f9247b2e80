import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/output.js';
import { freePortRange } from '../../support/free-port-range.js';
import { createCliHarness, type CliHarness } from './cli-harness.js';

/**
 * A server that cannot start or be reached is the commonest set-up mistake: a typo in the command,
 * a PATH the daemon does not have, a missing API key. `coffer mcp test` (and every call)
 * says which, from the process's own exit and last stderr line, instead of "closed the
 * connection".
 */
let cli: CliHarness;
beforeAll(() => {
  // Short, so the server that never answers fails in seconds (the default is 60 s), yet
  // long enough for the others to exit on their own on a loaded machine.
  cli = createCliHarness({ COFFER_CONNECT_TIMEOUT_MS: '20000' });
});
afterAll(async () => {
  await cli.close();
});

async function addAndTest(name: string, command: string[]): Promise<string> {
  const added = await cli.run('mcp', 'add', name, '--', ...command);
  expect(added.code, added.stderr).toBe(0);
  const tested = await cli.run('mcp', 'test', name);
  expect(tested.code).toBe(ExitCode.UNAVAILABLE);
  return tested.stderr;
}

describe('a server that cannot start', () => {
  it('names a command that does not exist', async () => {
    const said = await addAndTest('ghost', ['/nonexistent/coffer-test-command', '--flag']);
    expect(said).toContain(
      'Upstream "ghost" could not start: command not found: /nonexistent/coffer-test-command',
    );
    // What to do about it, not only where its log is.
    expect(said).toContain('use an absolute path, or check PATH');
  });

  it('quotes why it exited, not its stack trace', async () => {
    const script =
      "console.error('starting v1'); throw new Error('API_KEY is required: set it in the environment')";
    const said = await addAndTest('keyless', [process.execPath, '-e', script]);
    expect(said).toContain('could not start: it exited with code 1');
    expect(said).toContain('Error: API_KEY is required: set it in the environment');
    expect(said).not.toContain('Node.js v');
  });

  it('gives the exit code when it said nothing', async () => {
    const said = await addAndTest('silent', [process.execPath, '-e', 'process.exit(3)']);
    expect(said).toContain('Upstream "silent" could not start: it exited with code 3');
  });

  it('says a remote server is not listening, instead of "fetch failed"', async () => {
    // A loopback port that was free a moment ago: the connection is refused at once.
    const { lo: port } = await freePortRange(1);
    const added = await cli.run('mcp', 'add', 'nobody', '--url', `http://127.0.0.1:${port}/mcp`);
    expect(added.code, added.stderr).toBe(0);
    const tested = await cli.run('mcp', 'test', 'nobody');
    expect(tested.code).toBe(ExitCode.UNAVAILABLE);
    expect(tested.stderr).toContain(
      'Upstream "nobody" could not be reached: nothing is listening there (connection refused)',
    );
    expect(tested.stderr).toContain('check that it is running and its URL');
  });

  it('says a remote server refused the key, instead of an empty message', async () => {
    // Answers every request as a server does to a wrong API key: 401, invalid_token.
    const refusing = createHttpServer((_request, response) => {
      response.writeHead(401, {
        'www-authenticate': 'Bearer realm="test"',
        'content-type': 'application/json',
      });
      response.end('{"error":"invalid_token"}');
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = refusing.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/mcp`;
      const added = await cli.run(
        'mcp',
        'add',
        'keyed',
        '--url',
        url,
        '--header',
        'X-Api-Key: wrong',
      );
      expect(added.code, added.stderr).toBe(0);
      const tested = await cli.run('mcp', 'test', 'keyed');
      expect(tested.code).toBe(ExitCode.AUTH);
      expect(tested.stderr).toContain(
        'Upstream "keyed" refused Coffer\'s credentials: it answered 401 and offers no OAuth sign-in',
      );
    } finally {
      refusing.closeAllConnections();
      await new Promise((resolve) => refusing.close(resolve));
    }
  });

  /** A server without OAuth that answers every request `status` with a JSON `body`. */
  async function refusingServer(status: number, body: string) {
    const server = createHttpServer((_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/mcp`,
      close: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it.each([
    ['an Authorization header', 'http', ['--header', 'Authorization: Bearer wrong']],
    ['an Authorization header over SSE', 'sse', ['--header', 'Authorization: Bearer wrong']],
    ['another header', 'http', ['--header', 'X-Api-Key: wrong']],
    ['no header', 'http', []],
  ])(
    'says a 401 with any body from a server without OAuth, given %s, is refused credentials',
    async (_given, transport, headers) => {
      const refusing = await refusingServer(401, '{"error":"unauthorized"}');
      const name = `refused-${transport}-${headers.length}-${headers.join('').length}`;
      try {
        const added = await cli.run(
          'mcp',
          'add',
          name,
          '-t',
          transport,
          '--url',
          refusing.url,
          ...headers,
        );
        expect(added.code, added.stderr).toBe(0);
        const tested = await cli.run('mcp', 'test', name);
        expect(tested.code, tested.stderr).toBe(ExitCode.AUTH);
        expect(tested.stderr).toContain(
          `Upstream "${name}" refused Coffer's credentials: it answered 401`,
        );
        expect(tested.stderr).not.toContain('server_error');
        expect(tested.stderr).toContain(`coffer mcp edit ${name} --header`);
        expect(tested.stderr).toContain(`coffer secrets set ${name} --header`);
        // A key refused, or no OAuth offered: no sign-in would help, so none is asked for.
        await cli.run('mcp', 'refresh', name);
        const listed = await cli.run('mcp', 'list');
        const row = listed.stdout.split('\n').find((line) => line.includes(` ${name} `));
        expect(row).toMatch(/│ error +│/);
      } finally {
        await refusing.close();
      }
    },
  );

  it('says a 403 about the key is refused credentials, and other 403s are not', async () => {
    const denying = await refusingServer(403, '{"error":"Invalid API key"}');
    const hostCheck = await refusingServer(403, '{"error":"Invalid Host header"}');
    try {
      await cli.run('mcp', 'add', 'denied', '--url', denying.url, '--header', 'X-Api-Key: wrong');
      const denied = await cli.run('mcp', 'test', 'denied');
      expect(denied.code, denied.stderr).toBe(ExitCode.AUTH);
      expect(denied.stderr).toContain(
        'Upstream "denied" refused Coffer\'s credentials: it answered 403: {"error":"Invalid API key"}',
      );
      await cli.run('mcp', 'add', 'hosted', '--url', hostCheck.url, '--header', 'X-Api-Key: k');
      const hosted = await cli.run('mcp', 'test', 'hosted');
      expect(hosted.code, hosted.stderr).toBe(ExitCode.UNAVAILABLE);
      expect(hosted.stderr).not.toContain("refused Coffer's credentials");
    } finally {
      await denying.close();
      await hostCheck.close();
    }
  });

  it('quotes what a server printed on stdout instead of answering initialize', async () => {
    const script = "console.log('Server ready on stdio!'); setInterval(() => {}, 1000)";
    const added = await cli.run('mcp', 'add', 'chatty', '--', process.execPath, '-e', script);
    expect(added.code, added.stderr).toBe(0);
    const tested = await cli.run('mcp', 'test', 'chatty');
    expect(tested.code).toBe(ExitCode.UNAVAILABLE);
    expect(tested.stderr).toContain(
      'did not finish starting (MCP initialize) within 20 s; it wrote "Server ready on stdio!" on stdout, which must carry only JSON-RPC',
    );
  });
});
