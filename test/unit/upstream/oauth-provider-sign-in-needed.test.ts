import { describe, expect, it } from 'vitest';
import type { CofferError } from '../../../src/domain/errors.js';
import { systemClock } from '../../../src/domain/ports.js';
import { CofferOAuthProvider } from '../../../src/upstream/oauth/coffer-oauth-provider.js';
import { OAuthVault } from '../../../src/upstream/oauth/oauth-vault.js';

const nothingStored = new OAuthVault({
  load: () => Promise.resolve(undefined),
  save: () => Promise.resolve(),
  forget: () => Promise.resolve(false),
});

describe('a connection that finds the server needs a sign-in', () => {
  it('reports the very error it fails with, so a later report of it can be told apart', () => {
    const reported: { server: string; error: CofferError }[] = [];
    const provider = new CofferOAuthProvider({
      server: 'remote',
      serverUrl: 'https://mcp.example.com/mcp',
      vault: nothingStored,
      clock: systemClock,
      mode: 'connect',
      redirectUrl: 'http://127.0.0.1:7000/oauth/callback',
      redirectUris: ['http://127.0.0.1:7000/oauth/callback'],
      onSignInNeeded: (server, error) => reported.push({ server, error }),
    });
    let thrown: unknown;
    try {
      provider.redirectToAuthorization(new URL('https://auth.example.com/authorize?scope=read'));
    } catch (error) {
      thrown = error;
    }
    expect(reported).toHaveLength(1);
    expect(reported[0]?.server).toBe('remote');
    expect(thrown).toBe(reported[0]?.error);
    expect(thrown).toMatchObject({ code: 'AUTH_REQUIRED' });
  });
});
