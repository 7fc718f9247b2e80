import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAuthorizationServer,
  type AuthorizationServerFixture,
} from '../../fixtures/oauth-authorization-server.js';
import { ECHO_AUTH_TOOL, echoAuthTool } from '../../fixtures/oauth-echo-tool.js';
import {
  startProtectedServer,
  type ProtectedServerFixture,
} from '../../fixtures/oauth-protected-server.js';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { fileSecrets, filesUnder, runCoffer } from '../secrets/run-coffer.js';
import { signIn } from './sign-in-support.js';

const ACCESS_NAME = 'remote/oauth/access_token';
const REFRESH_NAME = 'remote/oauth/refresh_token';
const ECHOED = `Authorization: Bearer [redacted: secret ${ACCESS_NAME}]`;

/** The tokens the daemon holds for `remote` now, from the file store. */
function storedTokens(home: string): { access_token: string; refresh_token: string } {
  const text = fileSecrets(home)['remote/oauth/tokens'];
  if (text === undefined) throw new Error('no tokens stored for remote');
  return JSON.parse(text) as { access_token: string; refresh_token: string };
}

const textOf = (result: unknown): string =>
  (result as { content: { text: string }[] }).content.map((item) => item.text).join('');

/** The error of a refused request: its data and message (undefined when it was not refused). */
async function refusal(request: Promise<unknown>) {
  const error = (await request.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as { message: string; data?: Record<string, unknown> } | undefined;
  return error === undefined ? undefined : { message: error.message, data: error.data ?? {} };
}

describe("the secret guard knows a remote server's OAuth tokens", () => {
  let authorization: AuthorizationServerFixture;
  let protectedServer: ProtectedServerFixture;
  let daemon: RunningDaemon;
  let agent: Client;
  const seen: string[] = [];
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await agent.callTool({ name, arguments: args });
    seen.push(JSON.stringify(result));
    return result;
  };

  beforeAll(async () => {
    authorization = await startAuthorizationServer();
    protectedServer = await startProtectedServer(authorization, { tools: echoAuthTool });
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file', COFFER_LOG_LEVEL: 'debug' });
    const added = await runCoffer(daemon.env, [
      'mcp',
      'add',
      'remote',
      '--url',
      protectedServer.url,
    ]);
    expect(added.code, added.stderr).toBe(0);
    await addFixture(daemon, 'beta');
    // The guard's matcher is built before the sign-in, so only invalidation can teach it the token.
    agent = await daemon.client({ name: 'token-guard-test' });
    expect(textOf(await call('beta__echo', { message: 'warm-up' }))).toContain('warm-up');
    const { result } = await signIn(daemon.env, 'remote');
    expect(result.code, result.stderr).toBe(0);
  });
  afterAll(async () => {
    await daemon?.stop();
    await protectedServer?.close();
    await authorization?.close();
  });

  it('redacts the access token an upstream echoes, in the agent\'s answer and "Try a tool"', async () => {
    const { access_token } = storedTokens(daemon.home);
    const echoed = await call(`remote__${ECHO_AUTH_TOOL}`);
    expect(textOf(echoed)).toBe(ECHOED);
    const tried = await daemon.api('POST', '/servers/remote/call', {
      tool: ECHO_AUTH_TOOL,
      arguments: {},
    });
    seen.push(JSON.stringify(tried.body));
    expect(tried.body).toMatchObject({
      outcome: 'ok',
      result: { content: [{ type: 'text', text: ECHOED }] },
      activity: { guard: 'redacted' },
    });
    expect(seen.join('\n')).not.toContain(access_token);
  });

  it("refuses the remote server's tokens passed to another server, by name", async () => {
    const { access_token, refresh_token } = storedTokens(daemon.home);
    for (const [value, name] of [
      [access_token, ACCESS_NAME],
      [refresh_token, REFRESH_NAME],
    ] as const) {
      const refused = await refusal(call('beta__echo', { message: `use ${value}` }));
      expect(refused?.data).toMatchObject({ coffer_code: 'SECRET_BLOCKED', secrets: [name] });
      expect(JSON.stringify(refused)).not.toContain(value);
    }
  });

  it('knows the new token after a refresh', async () => {
    const before = storedTokens(daemon.home).access_token;
    const refreshes = authorization.counts.refresh;
    authorization.expireAccessTokens();
    expect(textOf(await call(`remote__${ECHO_AUTH_TOOL}`))).toBe(ECHOED);
    expect(authorization.counts.refresh).toBeGreaterThan(refreshes);
    expect(storedTokens(daemon.home).access_token).not.toBe(before);
  });

  it('records "redacted" in activity, and no token reaches a file but secrets.json', async () => {
    await expect
      .poll(async () => {
        const rows = await daemon.api('GET', '/activity?guard=redacted&server=remote');
        return (rows.body.activity as unknown[]).length;
      })
      .toBeGreaterThanOrEqual(3);
    const activity = await daemon.api('GET', '/activity?limit=1000');
    const cli = await runCoffer(daemon.env, ['activity', '--json', '--limit', '1000']);
    const tokens = authorization.issued();
    const files = filesUnder(daemon.home).filter((path) => basename(path) !== 'secrets.json');
    expect(files.map((path) => basename(path))).toContain('coffer.log');
    const texts = [JSON.stringify(activity.body), cli.stdout, ...seen];
    for (const file of files) texts.push(readFileSync(file).toString('latin1'));
    for (const text of texts) for (const token of tokens) expect(text).not.toContain(token);
  });

  it('forgets the tokens at logout: the revoked token is no longer refused', async () => {
    const { access_token } = storedTokens(daemon.home);
    const out = await runCoffer(daemon.env, ['mcp', 'logout', 'remote']);
    expect(out.code, out.stderr).toBe(0);
    expect(textOf(await call('beta__echo', { message: access_token }))).toContain(access_token);
  });
});
