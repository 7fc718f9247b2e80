import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamConnection } from '../../../src/domain/ports.js';
import type { ServerDefinition } from '../../../src/domain/server-definition.js';
import type { OAuthSignInFlow } from '../../../src/upstream/oauth/index.js';
import { SdkUpstreamConnector } from '../../../src/upstream/upstream-connector.js';
import {
  startAuthorizationServer,
  type AuthorizationServerFixture,
} from '../../fixtures/oauth-authorization-server.js';
import {
  startProtectedServer,
  type ProtectedServerFixture,
} from '../../fixtures/oauth-protected-server.js';
import { FakeClock } from '../store/temp-store.js';
import { remoteDefinition, testSignInFlow } from './oauth-test-flow.js';
const TTL_S = 60;
/** Refresh when less than this is left; the test moves its clock past that point by hand. */
const SKEW_MS = 10_000;

const context = {
  clientCapabilities: {},
  peer: { request: () => Promise.reject(new Error('unused')), notify: () => {} },
  sessionId: null,
};

describe('the OAuth provider with two connections to one server', () => {
  let authorization: AuthorizationServerFixture;
  let protectedServer: ProtectedServerFixture;
  let home: string;
  let flow: OAuthSignInFlow;
  let connector: SdkUpstreamConnector;
  let definition: ServerDefinition;
  // Only the token's due time is faked: a clock moved by hand makes the token due exactly when
  // the test says so, and the fresh token not due again, however slowly a loaded machine runs.
  const clock = new FakeClock(new Date().toISOString());
  const open: UpstreamConnection[] = [];
  const needed: string[] = [];

  beforeAll(async () => {
    authorization = await startAuthorizationServer({ accessTokenTtlS: TTL_S });
    protectedServer = await startProtectedServer(authorization);
    home = mkdtempSync(join(tmpdir(), 'coffer-oauth-'));
    definition = remoteDefinition('remote', protectedServer.url);
    flow = testSignInFlow(home, definition, { refreshSkewMs: SKEW_MS, clock });
    connector = new SdkUpstreamConnector({
      clientInfo: { name: 'coffer-test', version: '1' },
      authProvider: (server) =>
        flow.provider(server, { mode: 'connect', onSignInNeeded: (name) => needed.push(name) }),
    });
  });
  afterAll(async () => {
    await Promise.allSettled(open.map((connection) => connection.close()));
    await protectedServer.close();
    await authorization.close();
    rmSync(home, { recursive: true, force: true });
  });

  const connect = async () => {
    const connection = await connector.connect(definition, context);
    open.push(connection);
    return connection;
  };

  it('refuses to connect before sign-in with AUTH_REQUIRED, and says so once', async () => {
    await expect(connect()).rejects.toMatchObject({ code: 'AUTH_REQUIRED' });
    expect(needed).toEqual(['remote']);
  });

  it('signs in through the flow; the state works once', async () => {
    const { authorization_url: url } = await flow.start('remote');
    const approval = await fetch(url, { redirect: 'manual' });
    const query = new URL(approval.headers.get('location') ?? '').searchParams;
    expect(await flow.complete(query)).toMatchObject({ ok: true, server: 'remote' });
    expect(await flow.complete(query)).toMatchObject({ ok: false });
    expect(flow.status('remote').state).toBe('signed-in');
  });

  it('refreshes a due token once for two connections calling at the same time', async () => {
    const [first, second] = await Promise.all([connect(), connect()]);
    clock.advance(TTL_S * 1000 - SKEW_MS);
    const before = authorization.counts.refresh;
    const call = (connection: UpstreamConnection | undefined) =>
      connection?.request('tools/call', { name: 'whoami', arguments: {} });
    const results = await Promise.all([call(first), call(second)]);
    expect(results.map((result) => JSON.stringify(result))).toEqual([
      expect.stringContaining('signed-in user'),
      expect.stringContaining('signed-in user'),
    ]);
    expect(authorization.counts.refresh).toBe(before + 1);
    expect(needed).toEqual(['remote']);
  });
});
