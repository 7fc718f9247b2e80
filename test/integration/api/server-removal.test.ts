import { afterEach, describe, expect, it } from 'vitest';
import type { OAuthSignIn, SecretRef, SecretStore } from '../../../src/domain/ports.js';
import { createApiHarness, httpServer, stdioServer, type ApiHarness } from './api-harness.js';

const keyOf = (ref: SecretRef) => `${ref.server}/${ref.kind}/${ref.name}`;

/** A keychain in memory; `listing: false` plays one that cannot be searched. */
function memoryKeychain(keys: readonly string[], options: { listing?: boolean } = {}) {
  const held = new Set(keys);
  const store: SecretStore = {
    backend: () => Promise.resolve({ backend: 'keychain' }),
    get: (ref) => Promise.resolve(held.has(keyOf(ref)) ? 'value' : undefined),
    set: (ref) => Promise.resolve(void held.add(keyOf(ref))),
    delete: (ref) => Promise.resolve(held.delete(keyOf(ref))),
    list: () => {
      if (options.listing === false) return Promise.reject(new Error('cannot search'));
      return Promise.resolve(
        [...held].map((key) => {
          const [server = '', kind = 'env', name = ''] = key.split('/');
          return { server, kind: kind as SecretRef['kind'], name };
        }),
      );
    },
  };
  return { store, held };
}

function signInFlow(forgotten: string[], failWith?: Error): OAuthSignIn {
  const unused = () => Promise.reject(new Error('unused'));
  return {
    start: unused,
    status: () => ({ state: 'none' }),
    logout: unused,
    setClient: unused,
    signedIn: () => Promise.resolve(false),
    clientId: () => Promise.resolve(undefined),
    forget: (server) => {
      forgotten.push(server);
      return failWith === undefined ? Promise.resolve(true) : Promise.reject(failWith);
    },
  };
}

let api: ApiHarness | undefined;
afterEach(async () => {
  await api?.close();
});

describe('DELETE /servers/:name and the keychain', () => {
  it("deletes every secret stored under the server's name, and forgets a remote one's sign-in", async () => {
    const keychain = memoryKeychain([
      'files/env/API_TOKEN',
      'files/env/LEFT_OVER',
      'remote/header/Authorization',
      'other/env/API_TOKEN',
    ]);
    const forgotten: string[] = [];
    api = await createApiHarness(undefined, {
      secrets: keychain.store,
      oauth: signInFlow(forgotten),
    });
    await api.request('POST', '/servers', { ...stdioServer, secret_env: ['API_TOKEN'] });
    await api.request('POST', '/servers', httpServer);

    expect((await api.request('DELETE', '/servers/files')).status).toBe(204);
    expect([...keychain.held].sort()).toEqual([
      'other/env/API_TOKEN',
      'remote/header/Authorization',
    ]);
    expect(forgotten).toEqual([]);
    expect((await api.request('DELETE', '/servers/remote')).status).toBe(204);
    expect([...keychain.held]).toEqual(['other/env/API_TOKEN']);
    expect(forgotten).toEqual(['remote']);
    expect((await api.request('DELETE', '/servers/remote')).status).toBe(404);
    expect(forgotten).toEqual(['remote']);
  });

  it('deletes the secrets the definition names where the keychain cannot be searched', async () => {
    const keychain = memoryKeychain(['files/env/API_TOKEN', 'files/env/LEFT_OVER'], {
      listing: false,
    });
    api = await createApiHarness(undefined, { secrets: keychain.store });
    await api.request('POST', '/servers', { ...stdioServer, secret_env: ['API_TOKEN'] });
    expect((await api.request('DELETE', '/servers/files')).status).toBe(204);
    expect([...keychain.held]).toEqual(['files/env/LEFT_OVER']);
  });

  it('removes the server even when the keychain refuses, and logs why', async () => {
    const keychain = memoryKeychain(['remote/header/Authorization']);
    keychain.store.delete = () => Promise.reject(new Error('keychain locked'));
    const forgotten: string[] = [];
    api = await createApiHarness(undefined, {
      secrets: keychain.store,
      oauth: signInFlow(forgotten, new Error('keychain locked')),
    });
    await api.request('POST', '/servers', httpServer);
    expect((await api.request('DELETE', '/servers/remote')).status).toBe(204);
    expect((await api.request('GET', '/servers/remote')).status).toBe(404);
    expect(forgotten).toEqual(['remote']);
    const warnings = api.logLines.filter((line) =>
      String(line['msg']).startsWith('could not delete credentials the server no longer uses'),
    );
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ server: 'remote', err: { message: 'keychain locked' } });
  });
});

describe('PATCH /servers/:name and the keychain', () => {
  it('deletes the value of a secret the definition no longer names, and only that', async () => {
    const keychain = memoryKeychain(['files/env/API_TOKEN', 'files/env/KEPT', 'files/env/SPARE']);
    api = await createApiHarness(undefined, { secrets: keychain.store });
    await api.request('POST', '/servers', { ...stdioServer, secret_env: ['API_TOKEN', 'KEPT'] });
    const patched = await api.request('PATCH', '/servers/files', { secret_env: ['KEPT'] });
    expect(patched.status).toBe(200);
    expect([...keychain.held].sort()).toEqual(['files/env/KEPT', 'files/env/SPARE']);
    await api.request('PATCH', '/servers/files', { env: { MORE: '1' } });
    expect([...keychain.held].sort()).toEqual(['files/env/KEPT', 'files/env/SPARE']);
  });

  it('forgets the sign-in of a remote server made local, and only then', async () => {
    const forgotten: string[] = [];
    api = await createApiHarness(undefined, { oauth: signInFlow(forgotten) });
    await api.request('POST', '/servers', httpServer);
    await api.request('PATCH', '/servers/remote', { url: 'http://127.0.0.1:9/other' });
    expect(forgotten).toEqual([]);
    const local = await api.request('PATCH', '/servers/remote', {
      transport: 'stdio',
      command: 'node',
      url: null,
      headers: {},
      secret_headers: [],
    });
    expect(local.status).toBe(200);
    expect(forgotten).toEqual(['remote']);
  });
});
