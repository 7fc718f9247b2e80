import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import { systemClock } from '../../../src/domain/ports.js';
import { CofferOAuthProvider } from '../../../src/upstream/oauth/coffer-oauth-provider.js';
import { responseIssuerProblem } from '../../../src/upstream/oauth/issuer-checks.js';
import { OAuthVault } from '../../../src/upstream/oauth/oauth-vault.js';
import { memoryStore } from './memory-oauth-store.js';

const AS = 'https://auth.example.com';

function discovery(issuer: string, extra: Record<string, unknown> = {}): OAuthDiscoveryState {
  return {
    authorizationServerUrl: AS,
    authorizationServerMetadata: {
      issuer,
      authorization_endpoint: `${AS}/authorize`,
      token_endpoint: `${AS}/token`,
      response_types_supported: ['code'],
      ...extra,
    },
  };
}

function provider(mode: 'connect' | 'login', store = memoryStore(), vault = new OAuthVault(store)) {
  return new CofferOAuthProvider({
    server: 'remote',
    serverUrl: 'https://mcp.example.com/mcp',
    vault,
    clock: systemClock,
    mode,
    redirectUrl: 'http://127.0.0.1:7000/oauth/callback',
    redirectUris: ['http://127.0.0.1:7000/oauth/callback'],
  });
}

describe("the OAuth provider's discovery (SEP-2352, SEP-2468)", () => {
  it('registers as a native application: its redirect is on loopback (SEP-837)', () => {
    expect(provider('login').clientMetadata).toMatchObject({ application_type: 'native' });
  });

  it('makes a connection discover again, whatever is stored: the server may have moved', async () => {
    const store = memoryStore();
    await provider('login', store).saveDiscoveryState(discovery(AS));
    expect(store.saved.has('remote/discovery')).toBe(true);
    expect(await provider('connect', store).discoveryState()).toBeUndefined();
  });

  it("gives a sign-in's code exchange the discovery its start made, and nothing older", async () => {
    const store = memoryStore();
    await provider('login', store).saveDiscoveryState(discovery(AS));
    const signIn = provider('login', store);
    expect(await signIn.discoveryState()).toBeUndefined();
    await signIn.saveDiscoveryState(discovery(AS));
    expect(await signIn.discoveryState()).toEqual(discovery(AS));
  });

  it('refuses metadata naming another issuer, before storing or using it', async () => {
    const store = memoryStore();
    const saving = provider('login', store).saveDiscoveryState(
      discovery('https://attacker.example.com'),
    );
    await expect(saving).rejects.toBeInstanceOf(CofferError);
    await expect(saving).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' });
    expect(store.saved.has('remote/discovery')).toBe(false);
  });

  it('accepts the issuer without the "/" the SDK adds to a bare origin', async () => {
    const state = { ...discovery(AS), authorizationServerUrl: `${AS}/` };
    await expect(provider('login').saveDiscoveryState(state)).resolves.toBeUndefined();
  });
});

describe("an authorization response's iss (RFC 9207)", () => {
  const advertised = discovery(AS, { authorization_response_iss_parameter_supported: true });

  it('is accepted when it is the recorded issuer, or absent and not advertised', () => {
    expect(responseIssuerProblem(AS, advertised)).toBeUndefined();
    expect(responseIssuerProblem(AS, discovery(AS))).toBeUndefined();
    expect(responseIssuerProblem(null, discovery(AS))).toBeUndefined();
  });

  it('is refused when absent though advertised, or another issuer even unadvertised', () => {
    expect(responseIssuerProblem(null, advertised)).toMatch(/no "iss"/);
    expect(responseIssuerProblem('https://evil.example.com', discovery(AS))).toMatch(/evil/);
  });

  it('is compared as a plain string: a trailing "/" or another case is another issuer', () => {
    expect(responseIssuerProblem(`${AS}/`, advertised)).toBeDefined();
    expect(responseIssuerProblem('https://AUTH.example.com', advertised)).toBeDefined();
  });

  it('cannot be checked without recorded metadata', () => {
    expect(responseIssuerProblem('https://evil.example.com', undefined)).toBeUndefined();
  });
});

describe("a step-up's scope (SEP-2350)", () => {
  it('asks for what was granted before and what is challenged now, each once', async () => {
    const store = memoryStore();
    const tokens = { access_token: 't', token_type: 'Bearer', scope: 'mcp:basic mcp:read' };
    store.saved.set('remote/tokens', JSON.stringify(tokens));
    const vault = new OAuthVault(store);
    const connection = provider('connect', store, vault);
    expect(await connection.tokens()).toMatchObject(tokens);
    const challenged = new URL(`${AS}/authorize?scope=mcp:read+mcp:write`);
    expect(() => connection.redirectToAuthorization(challenged)).toThrow(
      expect.objectContaining({ code: 'AUTH_REQUIRED' }) as Error,
    );
    expect(vault.rememberedScope('remote')).toBe('mcp:basic mcp:read mcp:write');
  });
});
