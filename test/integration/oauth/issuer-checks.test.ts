import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
 * A sign-in against the test authorization server, with what its answers may say changed
 * on the way (the way a misconfigured or hostile server would say it): the registration
 * Coffer sends, the issuer its metadata names, the `iss` its response carries (SEP-2468).
 */
describe('the issuers of a sign-in', () => {
  let authorization: AuthorizationServerFixture;
  let protectedServer: ProtectedServerFixture;
  let home: string;
  const registrations: Record<string, unknown>[] = [];
  let metadataChange: Record<string, unknown> = {};

  const tampering: FetchLike = async (url, init) => {
    const path = new URL(String(url)).pathname;
    if (path === '/register' && typeof init?.body === 'string')
      registrations.push(JSON.parse(init.body) as Record<string, unknown>);
    const response = await fetch(url, init);
    if (!path.startsWith('/.well-known/oauth-authorization-server')) return response;
    const metadata = { ...((await response.json()) as object), ...metadataChange };
    return new Response(JSON.stringify(metadata), { headers: response.headers });
  };

  beforeAll(async () => {
    authorization = await startAuthorizationServer();
    protectedServer = await startProtectedServer(authorization);
    home = mkdtempSync(join(tmpdir(), 'coffer-oauth-issuers-'));
  });
  afterEach(() => {
    metadataChange = {};
  });
  afterAll(async () => {
    await protectedServer.close();
    await authorization.close();
    rmSync(home, { recursive: true, force: true });
  });

  const flow = () =>
    testSignInFlow(home, remoteDefinition('remote', protectedServer.url), {
      fetchFn: tampering,
    });

  /** Starts a sign-in and plays the browser: the query it brings back, `iss` set as asked. */
  async function approved(signIn: ReturnType<typeof flow>, iss: string | undefined) {
    const { authorization_url: url } = await signIn.start('remote');
    const approval = await fetch(url, { redirect: 'manual' });
    const query = new URL(approval.headers.get('location') ?? '').searchParams;
    if (iss !== undefined) query.set('iss', iss);
    return query;
  }

  it('registers as a native application (SEP-837)', async () => {
    await flow().start('remote');
    expect(registrations.at(-1)).toMatchObject({ application_type: 'native' });
  });

  it('exchanges the code of a response from the issuer it asked', async () => {
    const signIn = flow();
    const outcome = await signIn.complete(await approved(signIn, authorization.url));
    expect(outcome).toMatchObject({ ok: true, server: 'remote' });
  });

  it('refuses a response from another issuer, or a "/" away, and never redeems its code', async () => {
    for (const iss of ['https://evil.example.com', `${authorization.url}/`]) {
      const signIn = flow();
      const query = await approved(signIn, iss);
      const exchanged = authorization.counts.code;
      const outcome = await signIn.complete(query);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toContain(`issuer "${iss}"`);
      expect(authorization.counts.code).toBe(exchanged);
    }
  });

  it('refuses a response without iss when the metadata promises one', async () => {
    metadataChange = { authorization_response_iss_parameter_supported: true };
    const signIn = flow();
    const query = await approved(signIn, undefined);
    const exchanged = authorization.counts.code;
    expect(await signIn.complete(query)).toMatchObject({ ok: false });
    expect(authorization.counts.code).toBe(exchanged);
  });

  it('does not use metadata that names another issuer, not even to register', async () => {
    metadataChange = { issuer: 'https://attacker.example.com' };
    const registered = registrations.length;
    const fresh = testSignInFlow(home, remoteDefinition('fresh', protectedServer.url), {
      fetchFn: tampering,
    });
    await expect(fresh.start('fresh')).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: expect.stringContaining('https://attacker.example.com') as unknown,
    });
    expect(registrations).toHaveLength(registered);
  });
});
