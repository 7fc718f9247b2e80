import { describe, expect, it } from 'vitest';
import { systemClock, type OAuthCredentialStore } from '../../../src/domain/ports.js';
import { CofferOAuthProvider } from '../../../src/upstream/oauth/coffer-oauth-provider.js';
import { OAuthVault, resourceOf } from '../../../src/upstream/oauth/oauth-vault.js';
import { memoryStore } from './memory-oauth-store.js';

const OLD_URL = 'https://mcp.example.com/mcp';
const NEW_URL = 'https://other.example.net/mcp';

/** A connection's provider for `remote` as defined at `serverUrl`, over a shared store. */
function connectingTo(serverUrl: string, store: OAuthCredentialStore): CofferOAuthProvider {
  return new CofferOAuthProvider({
    server: 'remote',
    serverUrl,
    vault: new OAuthVault(store),
    clock: systemClock,
    mode: 'connect',
    redirectUrl: 'http://127.0.0.1:7000/oauth/callback',
    redirectUris: ['http://127.0.0.1:7000/oauth/callback'],
  });
}

const storedTokens = (store: { saved: Map<string, string> }) =>
  JSON.parse(store.saved.get('remote/tokens') ?? 'null') as Record<string, unknown> | null;

describe('tokens bound to the URL they were obtained for', () => {
  it('are stored with that URL and handed out only to a connection to it', async () => {
    const store = memoryStore();
    await connectingTo(OLD_URL, store).saveTokens({ access_token: 'at-1', token_type: 'Bearer' });
    expect(storedTokens(store)).toMatchObject({ access_token: 'at-1', resource: OLD_URL });
    expect(await connectingTo(NEW_URL, store).tokens()).toBeUndefined();
    expect(await connectingTo(`${OLD_URL}#fragment`, store).tokens()).toMatchObject({
      access_token: 'at-1',
    });
    // Not forgotten: the server may be moved back, and a new sign-in replaces them anyway.
    expect(storedTokens(store)).toMatchObject({ access_token: 'at-1' });
  });

  it('binds tokens stored before binding to the URL they are first used with', async () => {
    const store = memoryStore();
    store.saved.set(
      'remote/tokens',
      JSON.stringify({ access_token: 'at-0', token_type: 'Bearer' }),
    );
    expect(await connectingTo(OLD_URL, store).tokens()).toMatchObject({ access_token: 'at-0' });
    expect(storedTokens(store)).toMatchObject({ resource: OLD_URL });
    expect(await connectingTo(NEW_URL, store).tokens()).toBeUndefined();
  });

  it('keeps a refresh token a new answer omits only if it was granted for the same URL', async () => {
    const store = memoryStore();
    const old = connectingTo(OLD_URL, store);
    await old.saveTokens({ access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1' });
    await old.saveTokens({ access_token: 'at-2', token_type: 'Bearer' });
    expect(storedTokens(store)).toMatchObject({ access_token: 'at-2', refresh_token: 'rt-1' });

    await connectingTo(NEW_URL, store).saveTokens({ access_token: 'at-3', token_type: 'Bearer' });
    expect(storedTokens(store)).toEqual({
      access_token: 'at-3',
      token_type: 'Bearer',
      resource: NEW_URL,
    });
  });

  it('names the resource as the sign-in does: the URL without its fragment', () => {
    expect(resourceOf('https://MCP.example.com:443/mcp?x=1#top')).toBe(
      'https://mcp.example.com/mcp?x=1',
    );
    expect(resourceOf('not a url')).toBe('not a url');
  });
});
