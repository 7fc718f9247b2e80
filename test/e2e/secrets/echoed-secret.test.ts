import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { filesUnder, runCoffer } from './run-coffer.js';

/** Distinct and unlikely anywhere by chance, so a hit is a leak. */
const KEY = `key-echoed-${Math.random().toString(36).slice(2)}-Q7`;

/**
 * A remote server that refuses every POST with an error page echoing the key it was sent,
 * as some do ("bad key …"), on /mcp; and one whose error page is 20 KB long, on /big.
 */
async function startEchoingServer(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    req.resume();
    if (req.url === '/big') {
      res.writeHead(502, { 'content-type': 'text/html' }).end(`<p>${'y'.repeat(20_000)}</p>`);
      return;
    }
    const key = String(req.headers['x-api-key'] ?? '');
    res.writeHead(500, { 'content-type': 'text/plain' }).end(`bad key ${key}, try again`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("a server's own secret, echoed in its error, is hidden wherever the error goes", () => {
  let daemon: RunningDaemon;
  let upstream: Awaited<ReturnType<typeof startEchoingServer>>;
  const coffer = (args: string[], input?: string) => runCoffer(daemon.env, args, input);

  beforeAll(async () => {
    upstream = await startEchoingServer();
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file' });
    const url = `${upstream.base}/mcp`;
    const args = ['mcp', 'add', 'echoer', '--url', url, '--secret-header', 'X-Api-Key'];
    const added = await coffer([...args, '--from-stdin'], `${KEY}\n`);
    expect(added.code, added.stderr).toBe(0);
  });
  afterAll(async () => {
    await daemon?.stop();
    upstream?.server.close();
  });

  it('in what the agent, the CLI, the API and the files say', async () => {
    const tested = await coffer(['mcp', 'test', 'echoer']);
    expect(tested.code).not.toBe(0);
    expect(tested.stderr).toContain('bad key [redacted: secret X-Api-Key], try again');
    const client = await daemon.client({ name: 'echo-test' });
    const call = client.callTool({ name: 'echoer__anything', arguments: {} });
    await expect(call).rejects.toThrow();
    await call.catch((error: unknown) => expect(String(error)).not.toContain(KEY));
    await client.close();
    const shown = await coffer(['mcp', 'show', 'echoer', '--json']);
    expect(shown.stdout).toContain('[redacted: secret X-Api-Key]');
    const listed = await daemon.api('GET', '/servers');
    for (const text of [tested.stdout, tested.stderr, shown.stdout, JSON.stringify(listed.body)])
      expect(text).not.toContain(KEY);
    const leaking = filesUnder(daemon.home).filter(
      (file) => basename(file) !== 'secrets.json' && readFileSync(file).includes(KEY),
    );
    expect(leaking).toEqual([]);
  });

  it('cuts a long error page, and says the HTTP status', async () => {
    const big = await coffer(['mcp', 'add', 'big', '--url', `${upstream.base}/big`]);
    expect(big.code, big.stderr).toBe(0);
    const tested = await coffer(['mcp', 'test', 'big']);
    expect(tested.code).not.toBe(0);
    expect(tested.stderr).toMatch(/HTTP 502/);
    expect(tested.stderr).toMatch(/… \(\d+ more characters\)/);
    expect(tested.stderr.length).toBeLessThan(2_000);
  });
});
