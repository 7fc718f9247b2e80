import { describe, expect, it } from 'vitest';
import { guardedSecretsOf } from '../../../src/credentials/guarded-secrets.js';
import type { OAuthSlot, SecretRef } from '../../../src/domain/ports.js';
import type { ServerDefinition } from '../../../src/domain/server-definition.js';

type Definition = Pick<ServerDefinition, 'name' | 'secret_env' | 'secret_headers' | 'url'>;

const def = (name: string, env: string[] = [], headers: string[] = []): Definition => ({
  name,
  secret_env: env,
  secret_headers: headers,
});
const remote = (name: string, headers: string[] = []): Definition => ({
  ...def(name, [], headers),
  url: `https://${name}.example/mcp`,
});
const defs =
  (...list: Definition[]) =>
  () =>
    Promise.resolve(list);

/** A store over a map, recording which refs were read. */
function store(values: Record<string, string>) {
  const reads: string[] = [];
  return {
    reads,
    get: (ref: SecretRef) => {
      const account = `${ref.server}/${ref.kind}/${ref.name}`;
      reads.push(account);
      return Promise.resolve(values[account]);
    },
  };
}

/** OAuth slots over a map of `<server>/oauth/<slot>` accounts, recording reads. */
function oauthStore(values: Record<string, string> = {}) {
  const reads: string[] = [];
  return {
    reads,
    load: (server: string, slot: OAuthSlot) => {
      const account = `${server}/oauth/${slot}`;
      reads.push(account);
      return Promise.resolve(values[account]);
    },
  };
}

const tokens = (fields: Record<string, unknown>) => JSON.stringify(fields);

describe('guardedSecretsOf', () => {
  it('gives each referenced secret with the servers that own it, one entry per value', async () => {
    const secrets = store({
      'github/env/TOKEN': 'shared-value-1',
      'backup/header/Authorization': 'shared-value-1',
      'db/env/PASSWORD': 'db-only-value',
    });
    const known = await guardedSecretsOf(
      secrets,
      defs(
        def('github', ['TOKEN']),
        def('backup', [], ['Authorization']),
        def('db', ['PASSWORD', 'UNSET']),
      ),
      oauthStore(),
    ).known();
    expect(known).toEqual([
      { name: 'github/env/TOKEN', value: 'shared-value-1', owners: ['github', 'backup'] },
      { name: 'db/env/PASSWORD', value: 'db-only-value', owners: ['db'] },
    ]);
  });

  it('reads nothing from the store when no server names a secret and none is remote', async () => {
    const secrets = store({ 'old/env/TOKEN': 'left-over-value' });
    const oauth = oauthStore({ 'plain/oauth/tokens': tokens({ access_token: 'never-read-1' }) });
    const known = await guardedSecretsOf(secrets, defs(def('plain'), def('other')), oauth).known();
    expect(known).toEqual([]);
    expect(secrets.reads).toEqual([]);
    expect(oauth.reads).toEqual([]);
  });

  it("knows each remote server's tokens and client secret, owned by it, named not valued", async () => {
    const oauth = oauthStore({
      'notion/oauth/tokens': tokens({
        access_token: 'notion-access-1',
        refresh_token: 'notion-refresh-1',
        token_type: 'Bearer',
        id_token: 'notion-id-token-1',
        expires_at: 1_900_000_000_000,
      }),
      'linear/oauth/tokens': tokens({ access_token: 'linear-access-1', token_type: 'Bearer' }),
      'linear/oauth/client': tokens({ client_id: 'linear-app', client_secret: 'linear-cs-1' }),
      'notion/oauth/preregistered': tokens({ client_id: 'n', client_secret: 'notion-cs-1' }),
      'local/oauth/tokens': tokens({ access_token: 'stale-local-token' }),
    });
    const known = await guardedSecretsOf(
      store({ 'local/env/KEY': 'local-secret-1' }),
      defs(remote('notion'), def('local', ['KEY']), remote('linear'), remote('unsigned')),
      oauth,
    ).known();
    expect(known).toEqual([
      { name: 'local/env/KEY', value: 'local-secret-1', owners: ['local'] },
      { name: 'notion/oauth/access_token', value: 'notion-access-1', owners: ['notion'] },
      { name: 'notion/oauth/refresh_token', value: 'notion-refresh-1', owners: ['notion'] },
      { name: 'notion/oauth/client_secret', value: 'notion-cs-1', owners: ['notion'] },
      { name: 'linear/oauth/access_token', value: 'linear-access-1', owners: ['linear'] },
      { name: 'linear/oauth/client_secret', value: 'linear-cs-1', owners: ['linear'] },
    ]);
    // Only the remote servers' tokens and client slots, never a stdio server's nor another slot.
    const slots = ['tokens', 'client', 'preregistered'];
    expect(oauth.reads).toEqual(
      ['notion', 'linear', 'unsigned'].flatMap((server) =>
        slots.map((slot) => `${server}/oauth/${slot}`),
      ),
    );
  });

  it('skips a damaged tokens entry without failing, and keeps the others', async () => {
    const oauth = oauthStore({
      'broken/oauth/tokens': '{"access_token": "half-writ',
      'null/oauth/tokens': 'null',
      'odd/oauth/tokens': tokens({ access_token: 42, refresh_token: ['x'] }),
      'empty/oauth/tokens': tokens({ access_token: '' }),
      'good/oauth/tokens': tokens({ access_token: 'good-access-1' }),
    });
    const known = await guardedSecretsOf(
      store({}),
      defs(remote('broken'), remote('null'), remote('odd'), remote('empty'), remote('good')),
      oauth,
    ).known();
    expect(known).toEqual([
      { name: 'good/oauth/access_token', value: 'good-access-1', owners: ['good'] },
    ]);
  });

  it('merges a token that is also a stored secret into one entry owned by both', async () => {
    const known = await guardedSecretsOf(
      store({ 'copy/header/Authorization': 'same-token-value' }),
      defs(def('copy', [], ['Authorization']), remote('remote')),
      oauthStore({ 'remote/oauth/tokens': tokens({ access_token: 'same-token-value' }) }),
    ).known();
    expect(known).toEqual([
      { name: 'copy/header/Authorization', value: 'same-token-value', owners: ['copy', 'remote'] },
    ]);
  });

  it('fails when the tokens cannot be read (a locked keychain), like a secret', async () => {
    const locked = { load: () => Promise.reject(new Error('keychain locked')) };
    await expect(
      guardedSecretsOf(store({}), defs(remote('notion')), locked).known(),
    ).rejects.toThrow('keychain locked');
  });
});
