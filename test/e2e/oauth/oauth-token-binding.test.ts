import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAuthorizationServer,
  type AuthorizationServerFixture,
} from '../../fixtures/oauth-authorization-server.js';
import { echoAuthTool } from '../../fixtures/oauth-echo-tool.js';
import {
  startProtectedServer,
  type ProtectedServerFixture,
} from '../../fixtures/oauth-protected-server.js';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { fileSecrets, runCoffer } from '../secrets/run-coffer.js';
import { signIn } from './sign-in-support.js';

/** The keychain accounts the daemon holds (file store: names only are read here). */
function storedAccounts(home: string): string[] {
  return Object.keys(fileSecrets(home)).sort();
}

/** A server on loopback that is not the one signed in to: it writes down what it is sent. */
async function startStranger(): Promise<{ server: Server; url: string; heard: string[] }> {
  const heard: string[] = [];
  const server = createServer((req, res) => {
    heard.push(`${req.method} ${req.url} ${req.headers.authorization ?? '(no authorization)'}`);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, heard };
}

describe("a remote server's OAuth tokens are bound to the URL they were signed in for", () => {
  let authorization: AuthorizationServerFixture;
  let protectedServer: ProtectedServerFixture;
  let stranger: Awaited<ReturnType<typeof startStranger>>;
  let daemon: RunningDaemon;
  const coffer = (...args: string[]) => runCoffer(daemon.env, args);

  beforeAll(async () => {
    authorization = await startAuthorizationServer();
    protectedServer = await startProtectedServer(authorization, { tools: echoAuthTool });
    stranger = await startStranger();
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file' });
    const added = await coffer('mcp', 'add', 'remote', '--url', protectedServer.url);
    expect(added.code, added.stderr).toBe(0);
    const { result } = await signIn(daemon.env, 'remote');
    expect(result.code, result.stderr).toBe(0);
  });
  afterAll(async () => {
    await daemon?.stop();
    await protectedServer?.close();
    await authorization?.close();
    stranger?.server.close();
  });

  /** What `coffer mcp show --json` says of the sign-in. */
  const signedIn = async (): Promise<unknown> => {
    const shown = await coffer('mcp', 'show', 'remote', '--json');
    expect(shown.code, shown.stderr).toBe(0);
    return (JSON.parse(shown.stdout) as { server: { signed_in?: boolean } }).server.signed_in;
  };

  it('never presents them to a new URL; the old URL takes them again', async () => {
    expect((await coffer('mcp', 'test', 'remote')).code).toBe(0);
    expect(await signedIn()).toBe(true);
    const moved = await coffer('mcp', 'edit', 'remote', '--url', stranger.url);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain(
      '\n  its OAuth sign-in was for the old URL; if the new one needs one: coffer mcp login remote\n',
    );
    expect(await signedIn()).toBe(false);
    expect((await coffer('mcp', 'show', 'remote')).stdout).toMatch(
      /^sign-in: +none \(if it uses OAuth: coffer mcp login remote\)$/m,
    );
    const tested = await coffer('mcp', 'test', 'remote');
    expect(tested.code).not.toBe(0);
    expect(stranger.heard.length).toBeGreaterThan(0);
    expect(stranger.heard.filter((line) => line.includes('Bearer'))).toEqual([]);
    for (const token of authorization.issued())
      expect(stranger.heard.join('\n')).not.toContain(token);

    const back = await coffer('mcp', 'edit', 'remote', '--url', protectedServer.url);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).not.toContain('sign-in');
    const again = await coffer('mcp', 'test', 'remote');
    expect(again.code, again.stderr).toBe(0);
    expect(await signedIn()).toBe(true);
  });

  it("sends a server's own headers to its origin only, never to its authorization server", async () => {
    const key = 'key-e2e-origin-7d1c';
    const added = await runCoffer(
      daemon.env,
      ['mcp', 'add', 'keyed', '--url', protectedServer.url, '-H', 'X-Team: blue'],
      undefined,
    );
    expect(added.code, added.stderr).toBe(0);
    const set = await runCoffer(
      daemon.env,
      ['secrets', 'set', 'keyed', '--header', 'X-Api-Key', '--from-stdin'],
      `${key}\n`,
    );
    expect(set.code, set.stderr).toBe(0);
    const before = authorization.received().length;
    // Not signed in: the 401 makes the SDK look for the authorization server.
    const tested = await coffer('mcp', 'test', 'keyed');
    expect(tested.code).toBe(6);
    const asked = authorization.received().slice(before);
    expect(asked.map(({ request }) => request)).toContainEqual(
      expect.stringContaining('/.well-known/oauth-authorization-server'),
    );
    for (const { headers } of asked) {
      expect(headers['x-api-key']).toBeUndefined();
      expect(headers['x-team']).toBeUndefined();
    }
    expect((await coffer('mcp', 'remove', 'keyed')).code).toBe(0);
  });

  it('removing the server deletes its secrets and sign-in from the keychain, and revokes', async () => {
    const set = await runCoffer(
      daemon.env,
      ['secrets', 'set', 'remote', '--header', 'X-Api-Key', '--from-stdin'],
      'key-e2e-5f2a\n',
    );
    expect(set.code, set.stderr).toBe(0);
    await addFixture(daemon, 'local');
    const local = await runCoffer(
      daemon.env,
      ['secrets', 'set', 'local', '--env', 'API_TOKEN', '--from-stdin'],
      'tok-e2e-91c3\n',
    );
    expect(local.code, local.stderr).toBe(0);
    expect(storedAccounts(daemon.home)).toEqual([
      'local/env/API_TOKEN',
      'remote/header/X-Api-Key',
      'remote/oauth/client',
      'remote/oauth/discovery',
      'remote/oauth/tokens',
    ]);
    const revoked = authorization.counts.revoke;

    const removed = await coffer('mcp', 'remove', 'remote');
    expect(removed.code, removed.stderr).toBe(0);
    // The file store (COFFER_KEYCHAIN=file) is named as `secrets set` names it.
    const store = join(daemon.home, 'secrets.json');
    expect(removed.stdout).toBe(
      `Removed server "remote"\n  deleted from ${store}: header "X-Api-Key"\n`,
    );
    expect(storedAccounts(daemon.home)).toEqual(['local/env/API_TOKEN']);
    await expect.poll(() => authorization.counts.revoke).toBeGreaterThan(revoked);
    const localRemoved = await coffer('mcp', 'remove', 'local');
    expect(localRemoved.stdout).toContain(`deleted from ${store}: env "API_TOKEN"`);
    expect(storedAccounts(daemon.home)).toEqual([]);

    // Added again under its name, it starts from nothing: no sign-in, no secret.
    expect((await coffer('mcp', 'add', 'remote', '--url', protectedServer.url)).code).toBe(0);
    expect(await signedIn()).toBe(false);
    const tested = await coffer('mcp', 'test', 'remote');
    expect(tested.code).toBe(6);
    expect(tested.stderr).toContain('coffer mcp login remote');
  });

  it('a server made local forgets its sign-in, and says so', async () => {
    const { result } = await signIn(daemon.env, 'remote');
    expect(result.code, result.stderr).toBe(0);
    expect(storedAccounts(daemon.home)).toContain('remote/oauth/tokens');
    const local = await coffer('mcp', 'edit', 'remote', '--', process.execPath, '-e', '0');
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout).toContain(
      '\n  its OAuth sign-in was forgotten: a local server has none\n',
    );
    expect(storedAccounts(daemon.home).filter((name) => name.startsWith('remote/'))).toEqual([]);
  });
});
