import { describe, expect, it } from 'vitest';
import { secretGuarding } from '../../../src/daemon/secret-guarding.js';
import type {
  OAuthCredentialStore,
  OAuthSlot,
  SecretRef,
  SecretStore,
} from '../../../src/domain/ports.js';
import {
  serverDefinitionSchema,
  type ServerDefinition,
} from '../../../src/domain/server-definition.js';

const ACCESS = 'access-token-value-1';
const MARKER = '[redacted: secret remote/oauth/access_token]';

/** One map behind both stores, as one keychain holds secrets and OAuth slots alike. */
function backend() {
  const values = new Map<string, string>();
  const loads: string[] = [];
  const account = (ref: SecretRef) => `${ref.server}/${ref.kind}/${ref.name}`;
  const secrets: SecretStore = {
    backend: () => Promise.resolve({ backend: 'file' }),
    get: (ref) => Promise.resolve(values.get(account(ref))),
    set: (ref, value) => Promise.resolve(void values.set(account(ref), value)),
    delete: (ref) => Promise.resolve(values.delete(account(ref))),
    list: () => Promise.resolve([]),
  };
  const oauth: OAuthCredentialStore = {
    load: (server: string, slot: OAuthSlot) => {
      loads.push(`${server}/${slot}`);
      return Promise.resolve(values.get(`${server}/oauth/${slot}`));
    },
    save: (server, slot, value) =>
      Promise.resolve(void values.set(`${server}/oauth/${slot}`, value)),
    forget: (server, slot) => Promise.resolve(values.delete(`${server}/oauth/${slot}`)),
  };
  return { values, loads, secrets, oauth };
}

const servers: ServerDefinition[] = [
  serverDefinitionSchema.parse({ name: 'remote', transport: 'http', url: 'https://r.example/mcp' }),
  serverDefinitionSchema.parse({ name: 'local', transport: 'stdio', command: 'node' }),
];

function wired(change: Partial<OAuthCredentialStore> = {}) {
  const store = backend();
  const guarding = secretGuarding(
    store.secrets,
    { ...store.oauth, ...change },
    () => Promise.resolve(servers),
    false,
  );
  const echo = async () =>
    JSON.stringify((await guarding.guard.redactResult({ text: `Bearer ${ACCESS}` })).result);
  return { store, guarding, echo };
}

describe('secretGuarding: OAuth tokens', () => {
  it('redacts a token saved after the matcher was built (sign-in, refresh)', async () => {
    const { guarding, echo } = wired();
    expect(await echo()).toContain(ACCESS);
    await guarding.oauth.save('remote', 'tokens', JSON.stringify({ access_token: ACCESS }));
    expect(await echo()).toContain(MARKER);
    expect(await echo()).not.toContain(ACCESS);
  });

  it('forgets a token forgotten (logout, revocation): it is no longer refused across', async () => {
    const { guarding } = wired();
    await guarding.oauth.save('remote', 'tokens', JSON.stringify({ access_token: ACCESS }));
    await expect(guarding.guard.checkOutgoing('local', { key: ACCESS })).rejects.toMatchObject({
      code: 'SECRET_BLOCKED',
    });
    expect(await guarding.oauth.forget('remote', 'tokens')).toBe(true);
    await expect(guarding.guard.checkOutgoing('local', { key: ACCESS })).resolves.toEqual([]);
  });

  it("passes a server's own token to it", async () => {
    const { guarding } = wired();
    await guarding.oauth.save('remote', 'tokens', JSON.stringify({ access_token: ACCESS }));
    await expect(guarding.guard.checkOutgoing('remote', { key: ACCESS })).resolves.toEqual([]);
  });

  it('keeps the matcher when an unguarded slot changes, and reads only the remote server', async () => {
    const { store, guarding, echo } = wired();
    const guardedSlots = ['remote/tokens', 'remote/client', 'remote/preregistered'];
    await echo();
    expect(store.loads).toEqual(guardedSlots);
    await guarding.oauth.save('remote', 'verifier', JSON.stringify({ code_verifier: 'v' }));
    await guarding.oauth.forget('remote', 'discovery');
    await echo();
    expect(store.loads).toEqual(guardedSlots);
    await guarding.oauth.forget('remote', 'client');
    await echo();
    expect(store.loads).toEqual([...guardedSlots, ...guardedSlots]);
    expect(await guarding.oauth.load('remote', 'verifier')).toContain('code_verifier');
  });

  it('invalidates even when the write fails (it may have half happened)', async () => {
    const { store, guarding, echo } = wired({ save: () => Promise.reject(new Error('disk full')) });
    expect(await echo()).toContain(ACCESS);
    store.values.set('remote/oauth/tokens', JSON.stringify({ access_token: ACCESS }));
    await expect(guarding.oauth.save('remote', 'tokens', '{}')).rejects.toThrow('disk full');
    expect(await echo()).toContain(MARKER);
  });
});
