import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthSignInFlow } from '../../../src/upstream/oauth/index.js';
import { eventually } from '../../support/eventually.js';
import {
  startAuthorizationServer,
  type AuthorizationServerFixture,
} from '../../fixtures/oauth-authorization-server.js';
import {
  startProtectedServer,
  type ProtectedServerFixture,
} from '../../fixtures/oauth-protected-server.js';
import { remoteDefinition, testSignInFlow } from './oauth-test-flow.js';

/**
 * `coffer mcp login` polls the sign-in status while the daemon exchanges the code. The
 * callback's `state` is spent before that exchange ends; a slow token endpoint (a loaded
 * machine, a distant server) must still read as pending, not as a sign-in that expired.
 */
describe('the sign-in status while the code is being exchanged', () => {
  let authorization: AuthorizationServerFixture;
  let protectedServer: ProtectedServerFixture;
  let home: string;
  let flow: OAuthSignInFlow;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let tokenRequests = 0;

  /** Holds token requests until released, the way a slow token endpoint would. */
  const slowTokens: FetchLike = async (url, init) => {
    if (new URL(String(url)).pathname.endsWith('/token')) {
      tokenRequests += 1;
      await held;
    }
    return fetch(url, init);
  };

  beforeAll(async () => {
    authorization = await startAuthorizationServer({ accessTokenTtlS: 3600 });
    protectedServer = await startProtectedServer(authorization);
    home = mkdtempSync(join(tmpdir(), 'coffer-oauth-status-'));
    const definition = remoteDefinition('remote', protectedServer.url);
    flow = testSignInFlow(home, definition, { fetchFn: slowTokens });
  });

  afterAll(async () => {
    release();
    await protectedServer.close();
    await authorization.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('stays pending until the token endpoint answers, then says signed-in', async () => {
    const { authorization_url: url } = await flow.start('remote');
    const approval = await fetch(url, { redirect: 'manual' });
    const query = new URL(approval.headers.get('location') ?? '').searchParams;
    const completing = flow.complete(query);
    await eventually(() => expect(tokenRequests).toBe(1));
    expect(flow.status('remote').state).toBe('pending');
    release();
    expect(await completing).toMatchObject({ ok: true, server: 'remote' });
    expect(flow.status('remote').state).toBe('signed-in');
  });
});
