import { describe, expect, it } from 'vitest';
import { createSecretResolver } from '../../../src/credentials/index.js';
import { CofferError } from '../../../src/domain/errors.js';
import type { SecretRef, SecretStore } from '../../../src/domain/ports.js';
import { serverDefinitionSchema } from '../../../src/domain/server-definition.js';

function memoryStore(values: Record<string, string>): SecretStore & { reads: number } {
  const key = (ref: SecretRef) => `${ref.server}/${ref.kind}/${ref.name}`;
  const store = {
    reads: 0,
    backend: () => Promise.resolve({ backend: 'keychain' as const }),
    get: (ref: SecretRef) => {
      store.reads++;
      return Promise.resolve(values[key(ref)]);
    },
    set: () => Promise.resolve(),
    delete: () => Promise.resolve(false),
    list: () => Promise.resolve([]),
  };
  return store;
}

const stdio = serverDefinitionSchema.parse({
  name: 'github',
  transport: 'stdio',
  command: 'node',
  secret_env: ['GITHUB_TOKEN', 'OTHER'],
});
const remote = serverDefinitionSchema.parse({
  name: 'docs',
  transport: 'http',
  url: 'https://example.com/mcp',
  secret_headers: ['Authorization'],
});

describe('createSecretResolver', () => {
  it('resolves env and header secrets by name', async () => {
    const store = memoryStore({
      'github/env/GITHUB_TOKEN': 'ghp_1',
      'github/env/OTHER': 'o',
      'docs/header/Authorization': 'Bearer x',
    });
    const resolve = createSecretResolver(store);
    expect(await resolve(stdio)).toEqual({
      extraEnv: { GITHUB_TOKEN: 'ghp_1', OTHER: 'o' },
      extraHeaders: {},
    });
    expect(await resolve(remote)).toEqual({
      extraEnv: {},
      extraHeaders: { Authorization: 'Bearer x' },
    });
  });

  it('names every missing secret and the command that sets it', async () => {
    const resolve = createSecretResolver(memoryStore({ 'github/env/OTHER': 'o' }));
    const error = (await resolve(stdio).catch((e: unknown) => e)) as CofferError;
    expect(error).toBeInstanceOf(CofferError);
    expect(error.code).toBe('SECRET_NOT_FOUND');
    expect(error.message).toBe(
      'Server "github" needs the secret env "GITHUB_TOKEN", which is not set',
    );
    expect(error.hint).toBe('set it with `coffer secrets set github --env GITHUB_TOKEN`');
    expect(error.data).toEqual({
      server: 'github',
      missing: [{ kind: 'env', name: 'GITHUB_TOKEN' }],
    });
  });

  it('does not touch the store for a server without secrets', async () => {
    const store = memoryStore({});
    const plain = serverDefinitionSchema.parse({ name: 'plain', transport: 'stdio', command: 'x' });
    expect(await createSecretResolver(store)(plain)).toEqual({ extraEnv: {}, extraHeaders: {} });
    expect(store.reads).toBe(0);
  });
});
