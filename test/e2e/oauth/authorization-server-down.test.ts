import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/output.js';
import {
  startAuthorizationServer,
  type AuthorizationServerFixture,
} from '../../fixtures/oauth-authorization-server.js';
import {
  startProtectedServer,
  type ProtectedServerFixture,
} from '../../fixtures/oauth-protected-server.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { fileSecrets, runCoffer } from '../secrets/run-coffer.js';
import { signIn } from './sign-in-support.js';

/**
 * A protected server's sign-in goes through the authorization server its metadata names,
 * elsewhere. When only that one is down, the MCP server is up: saying it "could not be
 * reached" sends the user to check the wrong server.
 */
describe('an OAuth server whose authorization server is down', () => {
  let authorization: AuthorizationServerFixture;
  let protectedServer: ProtectedServerFixture;
  let daemon: RunningDaemon;
  const coffer = (...args: string[]) => runCoffer(daemon.env, args);

  beforeAll(async () => {
    authorization = await startAuthorizationServer();
    protectedServer = await startProtectedServer(authorization);
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file' });
    for (const name of ['secure', 'fresh'])
      expect((await coffer('mcp', 'add', name, '--url', protectedServer.url)).code).toBe(0);
    expect((await signIn(daemon.env, 'secure')).result.code).toBe(0);
    expect((await coffer('mcp', 'test', 'secure')).code).toBe(0);
    // Its tokens refused from now on, and nowhere to refresh them or sign in again.
    authorization.expireAccessTokens();
    await authorization.close();
  });
  afterAll(async () => {
    await daemon.stop();
    await protectedServer.close();
  });

  const saysAuthorizationServerDown = (said: string, name: string) => {
    expect(said).toContain(
      `the authorization server of "${name}" at ${authorization.url} could not be reached: nothing is listening there (connection refused)`,
    );
    expect(said).not.toContain(`Upstream "${name}" could not be reached`);
  };

  it('says so for a server signed in whose token is refused', async () => {
    const tested = await coffer('mcp', 'test', 'secure');
    expect(tested.code, tested.stderr).toBe(ExitCode.UNAVAILABLE);
    saysAuthorizationServerDown(tested.stderr, 'secure');
    // Not "needs sign-in": its tokens are kept for when the authorization server is back.
    expect(tested.stderr).not.toContain('coffer mcp login secure');
    expect(fileSecrets(daemon.home)['secure/oauth/tokens']).toBeDefined();
    expect((await coffer('mcp', 'list')).stdout).not.toMatch(/secure .*needs-sign-in/);
  });

  it('says so for a server never signed in, and for its sign-in', async () => {
    const tested = await coffer('mcp', 'test', 'fresh');
    expect(tested.code, tested.stderr).toBe(ExitCode.UNAVAILABLE);
    saysAuthorizationServerDown(tested.stderr, 'fresh');
    const login = await coffer('mcp', 'login', 'fresh', '--no-open');
    expect(login.code, login.stderr).toBe(ExitCode.UNAVAILABLE);
    saysAuthorizationServerDown(login.stderr, 'fresh');
  });
});
