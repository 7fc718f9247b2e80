import { describe, expect, it } from 'vitest';
import { guardedSecretsOf } from '../../../src/credentials/guarded-secrets.js';
import type { SecretRef } from '../../../src/domain/ports.js';
import type { ServerDefinition } from '../../../src/domain/server-definition.js';

type Definition = Pick<ServerDefinition, 'name' | 'secret_env' | 'secret_headers'>;

const def = (name: string, env: string[] = [], headers: string[] = []): Definition => ({
  name,
  secret_env: env,
  secret_headers: headers,
});

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

describe('guardedSecretsOf', () => {
  it('gives each referenced secret with the servers that own it, one entry per value', async () => {
    const secrets = store({
      'github/env/TOKEN': 'shared-value-1',
      'backup/header/Authorization': 'shared-value-1',
      'db/env/PASSWORD': 'db-only-value',
    });
    const known = await guardedSecretsOf(secrets, () =>
      Promise.resolve([
        def('github', ['TOKEN']),
        def('backup', [], ['Authorization']),
        def('db', ['PASSWORD', 'UNSET']),
      ]),
    ).known();
    expect(known).toEqual([
      { name: 'github/env/TOKEN', value: 'shared-value-1', owners: ['github', 'backup'] },
      { name: 'db/env/PASSWORD', value: 'db-only-value', owners: ['db'] },
    ]);
  });

  it('reads nothing from the store when no server names a secret', async () => {
    const secrets = store({ 'old/env/TOKEN': 'left-over-value' });
    const known = await guardedSecretsOf(secrets, () =>
      Promise.resolve([def('plain'), def('other')]),
    ).known();
    expect(known).toEqual([]);
    expect(secrets.reads).toEqual([]);
  });
});
