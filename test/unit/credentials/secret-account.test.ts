import { describe, expect, it } from 'vitest';
import { accountOf, refOf } from '../../../src/credentials/index.js';

describe('keychain account names', () => {
  it('round-trip <server>/<kind>/<name>', () => {
    const env = { server: 'github', kind: 'env', name: 'GITHUB_TOKEN' } as const;
    const header = { server: 'docs', kind: 'header', name: 'Authorization' } as const;
    expect(accountOf(env)).toBe('github/env/GITHUB_TOKEN');
    expect(accountOf(header)).toBe('docs/header/Authorization');
    expect(refOf(accountOf(env))).toEqual(env);
    expect(refOf(accountOf(header))).toEqual(header);
  });

  it('ignores accounts Coffer did not write, the probe included', () => {
    for (const account of ['probe/123-abcd', 'a/b', 'a/secret/B', '/env/X', 'a/env/', 'a/env/B/C'])
      expect(refOf(account)).toBeUndefined();
  });
});
