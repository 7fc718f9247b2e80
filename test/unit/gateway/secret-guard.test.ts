import { describe, expect, it } from 'vitest';
import type { GuardedSecrets, JsonObject } from '../../../src/domain/ports.js';
import type { KnownSecret } from '../../../src/domain/secret-scan.js';
import { SecretGuard } from '../../../src/gateway/secret-guard.js';

const github: KnownSecret = {
  name: 'github/env/GITHUB_TOKEN',
  value: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  owners: ['github'],
};
const db: KnownSecret = { name: 'db/env/PASSWORD', value: 'pa"ss\\word-42', owners: ['db'] };
const AWS_KEY_ID = 'AKIAABCDEFGHIJKLMNOP';

/** A source that counts its reads, so the tests see when the matcher is rebuilt. */
function source(initial: KnownSecret[]) {
  const state = { secrets: initial, reads: 0, fail: false };
  const secrets: GuardedSecrets = {
    known: () => {
      state.reads += 1;
      return state.fail
        ? Promise.reject(new Error('keychain locked'))
        : Promise.resolve([...state.secrets]);
    },
  };
  return { state, secrets };
}

const callTo = (args: JsonObject): JsonObject => ({ name: 'echo', arguments: args });

describe('SecretGuard.checkOutgoing', () => {
  it('refuses another server secret with SECRET_BLOCKED naming it, never its value', async () => {
    const guard = new SecretGuard({ secrets: source([github]).secrets });
    const refusal = guard.checkOutgoing('notes', callTo({ text: `use ${github.value}` }));
    await expect(refusal).rejects.toMatchObject({
      code: 'SECRET_BLOCKED',
      data: { server: 'notes', secrets: ['github/env/GITHUB_TOKEN'] },
    });
    const error = (await refusal.catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('github/env/GITHUB_TOKEN');
    expect(JSON.stringify(error)).not.toContain(github.value);
    expect(error.message).not.toContain(github.value);
  });

  it('finds it encoded, and inside JSON text where quotes and backslashes are escaped', async () => {
    const guard = new SecretGuard({ secrets: source([github, db]).secrets });
    const encoded = Buffer.from(`x${github.value}`).toString('base64');
    await expect(guard.checkOutgoing('notes', callTo({ blob: encoded }))).rejects.toMatchObject({
      code: 'SECRET_BLOCKED',
    });
    await expect(guard.checkOutgoing('notes', callTo({ q: db.value }))).rejects.toMatchObject({
      code: 'SECRET_BLOCKED',
      data: { secrets: ['db/env/PASSWORD'] },
    });
  });

  it('lets a server receive its own secret, even with blocking on and a credential shape', async () => {
    const guard = new SecretGuard({ ...source([github]), blockCredentials: true });
    await expect(guard.checkOutgoing('github', callTo({ token: github.value }))).resolves.toEqual(
      [],
    );
  });

  it('flags a credential shape, and refuses it with CREDENTIAL_BLOCKED when blocking is on', async () => {
    const flagging = new SecretGuard({ secrets: source([]).secrets });
    await expect(flagging.checkOutgoing('notes', callTo({ key: AWS_KEY_ID }))).resolves.toEqual([
      'credential_flagged',
    ]);
    const blocking = new SecretGuard({ ...source([]), blockCredentials: true });
    await expect(
      blocking.checkOutgoing('notes', callTo({ key: AWS_KEY_ID })),
    ).rejects.toMatchObject({
      code: 'CREDENTIAL_BLOCKED',
      data: { server: 'notes', credentials: ['aws-access-key'] },
    });
    await expect(blocking.checkOutgoing('notes', callTo({ text: 'hello' }))).resolves.toEqual([]);
  });

  it('reads the secrets once, and again only after invalidate', async () => {
    const { state, secrets } = source([]);
    const guard = new SecretGuard({ secrets });
    await guard.checkOutgoing('notes', callTo({ text: github.value }));
    await guard.redactResult({ content: [] });
    expect(state.reads).toBe(1);
    state.secrets = [github];
    await guard.checkOutgoing('notes', callTo({ text: github.value }));
    guard.invalidate();
    await expect(
      guard.checkOutgoing('notes', callTo({ text: github.value })),
    ).rejects.toMatchObject({ code: 'SECRET_BLOCKED' });
    expect(state.reads).toBe(2);
  });

  it('fails the call when the secrets cannot be read, and reads them again next time', async () => {
    const { state, secrets } = source([github]);
    const guard = new SecretGuard({ secrets });
    state.fail = true;
    await expect(guard.checkOutgoing('notes', callTo({}))).rejects.toThrow('keychain locked');
    state.fail = false;
    await expect(guard.checkOutgoing('notes', callTo({}))).resolves.toEqual([]);
    expect(state.reads).toBe(2);
  });
});

describe('SecretGuard.redactResult', () => {
  it('replaces every stored secret in text, structuredContent and keys by its marker', async () => {
    const guard = new SecretGuard({ secrets: source([github, db]).secrets });
    const result: JsonObject = {
      content: [{ type: 'text', text: `token=${github.value}; pw=${db.value}` }],
      structuredContent: { nested: [{ [github.value]: Buffer.from(db.value).toString('hex') }] },
      isError: false,
    };
    const guarded = await guard.redactResult(result);
    expect(guarded.events).toEqual(['redacted']);
    expect(guarded.result).toEqual({
      content: [
        {
          type: 'text',
          text: 'token=[redacted: secret github/env/GITHUB_TOKEN]; pw=[redacted: secret db/env/PASSWORD]',
        },
      ],
      structuredContent: {
        nested: [
          { '[redacted: secret github/env/GITHUB_TOKEN]': '[redacted: secret db/env/PASSWORD]' },
        ],
      },
      isError: false,
    });
    expect(JSON.stringify(guarded.result)).not.toContain(github.value);
  });

  it('returns a result without secrets as it was, the same object', async () => {
    const guard = new SecretGuard({ secrets: source([github]).secrets });
    const result: JsonObject = { content: [{ type: 'text', text: 'nothing here' }] };
    const guarded = await guard.redactResult(result);
    expect(guarded.result).toBe(result);
    expect(guarded.events).toEqual([]);
  });
});
