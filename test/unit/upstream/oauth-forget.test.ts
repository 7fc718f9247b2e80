import { describe, expect, it } from 'vitest';
import { oauthSlots, systemClock } from '../../../src/domain/ports.js';
import { OAuthSignInFlow, OAuthVault } from '../../../src/upstream/oauth/index.js';
import { memoryStore } from './memory-oauth-store.js';

const AS = 'https://auth.example.com';

/** What a signed-in server leaves: every slot, with a revocation endpoint discovered. */
function signedIn(store: { saved: Map<string, string> }, server: string): void {
  const put = (slot: string, value: unknown) =>
    store.saved.set(`${server}/${slot}`, JSON.stringify(value));
  put('tokens', { access_token: `at-${server}`, token_type: 'Bearer', refresh_token: 'rt' });
  put('client', { client_id: 'coffer-client' });
  put('preregistered', { client_id: 'by-hand' });
  put('verifier', { code_verifier: 'v' });
  put('discovery', {
    authorizationServerUrl: AS,
    authorizationServerMetadata: {
      issuer: AS,
      authorization_endpoint: `${AS}/authorize`,
      token_endpoint: `${AS}/token`,
      revocation_endpoint: `${AS}/revoke`,
      response_types_supported: ['code'],
    },
  });
}

describe('forgetting a removed server', () => {
  it('empties every slot of that server only, and asks for revocation without waiting', async () => {
    const store = memoryStore();
    signedIn(store, 'remote');
    signedIn(store, 'other');
    const revoked: string[] = [];
    let answer: (response: Response) => void = () => {};
    const flow = new OAuthSignInFlow({
      vault: new OAuthVault(store),
      clock: systemClock,
      lookup: () => Promise.resolve(undefined),
      redirectUrl: 'http://127.0.0.1:7000/oauth/callback',
      redirectUris: ['http://127.0.0.1:7000/oauth/callback'],
      fetchFn: (url, init) => {
        revoked.push(`${String(url)} ${(init?.body as URLSearchParams).toString()}`);
        // The authorization server never answers the first request: forget must not wait.
        return new Promise<Response>((resolve) => (answer = resolve));
      },
    });

    expect(await flow.forget('remote')).toBe(true);
    expect([...store.saved.keys()].filter((key) => key.startsWith('remote/'))).toEqual([]);
    expect([...store.saved.keys()].filter((key) => key.startsWith('other/'))).toHaveLength(
      oauthSlots.length,
    );
    expect(revoked).toEqual([
      `${AS}/revoke token=rt&token_type_hint=refresh_token&client_id=by-hand`,
    ]);
    answer(new Response(null, { status: 200 }));
    await expect.poll(() => revoked.length).toBe(2);
    expect(revoked[1]).toContain('token=at-remote&token_type_hint=access_token');
    expect(await flow.forget('remote')).toBe(false);
  });
});
