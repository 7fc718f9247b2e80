import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAuthorizationServer,
  type AuthorizationServerFixture,
} from '../../fixtures/oauth-authorization-server.js';
import {
  startProtectedServer,
  type ProtectedServerFixture,
} from '../../fixtures/oauth-protected-server.js';
import { eventually } from '../../support/eventually.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { filesUnder, runCoffer } from '../secrets/run-coffer.js';
import { signIn } from './sign-in-support.js';

/**
 * Fresh for 2 s, long enough for a run of calls and short enough to wait out once. The wide
 * skew is the margin for a loaded machine: the daemon dates a token from when the answer
 * reached it, the server from when it issued it, and the two may be seconds apart.
 */
const ACCESS_TTL_S = 6;
const SKEW_MS = 4_000;

/** When the daemon will think the stored access token due for a refresh (from secrets.json). */
function refreshDueAt(home: string): number {
  const file = JSON.parse(readFileSync(`${home}/secrets.json`, 'utf8')) as {
    secrets: Record<string, string>;
  };
  const tokens = JSON.parse(file.secrets['secure/oauth/tokens'] ?? '{}') as { expires_at?: number };
  if (tokens.expires_at === undefined) throw new Error('no access token with an expiry stored');
  return tokens.expires_at - SKEW_MS;
}

async function callWhoami(client: Client): Promise<string> {
  const result = await client.request(
    { method: 'tools/call', params: { name: 'whoami', arguments: {} } },
    CallToolResultSchema,
  );
  return result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
}

/**
 * On `/servers/<name>/mcp` the upstream is initialized with the session, so the refusal
 * comes as the answer to initialize (a JSON-RPC error in an HTTP error) or to the call.
 */
async function authRequiredOf(connect: () => Promise<Client>): Promise<string> {
  const error: unknown = await connect()
    .then(callWhoami)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(Error);
  const text = (error as Error).message;
  if (error instanceof McpError) {
    expect(error.code).toBe(-32011);
    expect((error.data as { coffer_code: string }).coffer_code).toBe('AUTH_REQUIRED');
  } else {
    expect(text).toContain('"code":-32011');
    expect(text).toContain('"coffer_code":"AUTH_REQUIRED"');
  }
  return text;
}

describe('a remote server behind OAuth: sign in once, refreshed, never leaked', () => {
  let authorization: AuthorizationServerFixture;
  let protectedServer: ProtectedServerFixture;
  let daemon: RunningDaemon;
  const answers: string[] = [];
  const api = async (method: string, path: string, body?: unknown) => {
    const result = await daemon.api(method, path, body);
    answers.push(JSON.stringify(result.body));
    return result;
  };
  const client = () => daemon.client({ server: 'secure', name: 'oauth-test' });
  const listed = async () => (await runCoffer(daemon.env, ['mcp', 'list'])).stdout;

  beforeAll(async () => {
    authorization = await startAuthorizationServer({ accessTokenTtlS: ACCESS_TTL_S });
    protectedServer = await startProtectedServer(authorization);
    daemon = await startDaemon({
      COFFER_KEYCHAIN: 'file',
      COFFER_LOG_LEVEL: 'debug',
      COFFER_OAUTH_REFRESH_SKEW_MS: String(SKEW_MS),
    });
    const added = await runCoffer(daemon.env, [
      'mcp',
      'add',
      'secure',
      '--url',
      protectedServer.url,
    ]);
    expect(added.code).toBe(0);
  });
  afterAll(async () => {
    await daemon.stop();
    await protectedServer.close();
    await authorization.close();
  });

  it('fails the first call with AUTH_REQUIRED naming `coffer mcp login secure`', async () => {
    expect(await authRequiredOf(client)).toContain('run `coffer mcp login secure`');
    expect(await listed()).toMatch(/secure .*needs-sign-in/);
  });

  it('answers the same on the aggregated /mcp: the list skips it, a call names the command', async () => {
    const aggregated = await daemon.client({ name: 'oauth-aggregated' });
    await aggregated.listTools();
    const error: unknown = await aggregated
      .request(
        { method: 'tools/call', params: { name: 'secure__whoami', arguments: {} } },
        CallToolResultSchema,
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain('run `coffer mcp login secure`');
  });

  it('signs in with `coffer mcp login --no-open`; the callback page says so, once', async () => {
    const { login, browser, result } = await signIn(daemon.env, 'secure');
    expect(login.url.startsWith(`${authorization.url}/authorize?`)).toBe(true);
    const query = new URL(login.url).searchParams;
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('resource')).toBe(protectedServer.url);
    expect(query.get('scope')).toBe('mcp:tools');
    expect(browser.callbackUrl.startsWith(`${daemon.baseUrl}/oauth/callback?`)).toBe(true);
    expect(browser.status).toBe(200);
    expect(browser.page).toContain('Signed in');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Signed in to "secure"');
    const replay = await fetch(browser.callbackUrl);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('already used or expired');
  });

  it('then serves calls, and the server is no longer shown as needing sign-in', async () => {
    expect(await callWhoami(await client())).toBe('signed-in user');
    expect(await listed()).not.toContain('needs-sign-in');
  });

  it('refreshes an access token the server refuses as expired, without the user', async () => {
    const before = authorization.counts.refresh;
    authorization.expireAccessTokens();
    expect(await callWhoami(await client())).toBe('signed-in user');
    expect(authorization.counts.refresh).toBeGreaterThan(before);
  });

  it('refreshes an access token before it expires, so the server never refuses it', async () => {
    const session = await client();
    expect(await callWhoami(session)).toBe('signed-in user');
    const refreshes = authorization.counts.refresh;
    const refusals = protectedServer.counts.unauthorized;
    // Into the refresh window (TTL minus skew) of the token the daemon holds now.
    const dueAt = refreshDueAt(daemon.home);
    await eventually(() => expect(Date.now()).toBeGreaterThanOrEqual(dueAt));
    expect(await callWhoami(session)).toBe('signed-in user');
    expect(authorization.counts.refresh).toBeGreaterThan(refreshes);
    expect(protectedServer.counts.unauthorized).toBe(refusals);
  });

  it('marks the server "needs sign-in" when its refresh token is revoked', async () => {
    authorization.revokeRefreshTokens();
    authorization.expireAccessTokens();
    expect(await authRequiredOf(client)).toContain('run `coffer mcp login secure`');
    expect(await listed()).toMatch(/secure .*needs-sign-in/);
    const view = await api('GET', '/servers/secure');
    expect(view.body.server.status.state).toBe('needs-sign-in');
    expect(view.body.server.status.last_error.code).toBe('AUTH_REQUIRED');
    await eventually(async () => {
      const activity = await api('GET', '/activity?server=secure');
      const actions = (activity.body.activity as { action: string }[]).map((row) => row.action);
      expect(actions).toContain('server.sign-in-required');
      expect(actions).toContain('server.login');
    });
  });

  it('keeps every token out of every file but secrets.json, out of API answers and logs', async () => {
    await signIn(daemon.env, 'secure');
    expect(await callWhoami(await client())).toBe('signed-in user');
    await api('GET', '/servers');
    await api('GET', '/servers/secure/login');
    await api('GET', '/status');
    await api('GET', '/activity');
    await api('GET', '/secrets');
    const tokens = authorization.issued();
    expect(tokens.length).toBeGreaterThan(4);
    const store = readFileSync(`${daemon.home}/secrets.json`, 'utf8');
    expect(tokens.some((token) => store.includes(token))).toBe(true);
    for (const file of filesUnder(daemon.home).filter(
      (path) => basename(path) !== 'secrets.json',
    )) {
      const content = readFileSync(file).toString('latin1');
      for (const token of tokens) expect(content, file).not.toContain(token);
    }
    for (const answer of answers) for (const token of tokens) expect(answer).not.toContain(token);
  });

  it('logout revokes the tokens at the server and forgets them', async () => {
    const signedIn = async (): Promise<unknown> =>
      (await daemon.api('GET', '/servers/secure')).body.server.signed_in;
    expect(await signedIn()).toBe(true);
    const revocations = authorization.counts.revoke;
    const out = await runCoffer(daemon.env, ['mcp', 'logout', 'secure']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Signed out of "secure" (the server revoked its tokens');
    expect(authorization.counts.revoke).toBeGreaterThan(revocations);
    expect(readFileSync(`${daemon.home}/secrets.json`, 'utf8')).not.toContain(
      'secure/oauth/tokens',
    );
    expect(await authRequiredOf(client)).toContain('run `coffer mcp login secure`');
    expect(await signedIn()).toBe(false);
  });

  it('refuses a callback with an unknown state, and a login of a local server', async () => {
    const stray = await fetch(`${daemon.baseUrl}/oauth/callback?state=forged&code=x`);
    expect(stray.status).toBe(400);
    const local = await runCoffer(daemon.env, ['mcp', 'add', 'local', '--', 'node', '-e', '0']);
    expect(local.code).toBe(0);
    const login = await runCoffer(daemon.env, ['mcp', 'login', 'local', '--no-open']);
    expect(login.code).not.toBe(0);
    expect(login.stderr).toContain('has no OAuth sign-in');
  });

  it('times out with a clear error when the browser never comes back', async () => {
    const run = await runCoffer(daemon.env, [
      'mcp',
      'login',
      'secure',
      '--no-open',
      '--timeout',
      '1',
    ]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('did not finish within 1 s');
  });
});
