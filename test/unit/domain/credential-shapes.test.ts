import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findCredentialShapes,
  type CredentialKind,
} from '../../../src/domain/credential-shapes.js';

// Built from pieces so that no scanner over this repository mistakes the fixtures for leaks.
const samples: Record<CredentialKind, string> = {
  'private-key': `-----BEGIN RSA ${'PRIVATE'} KEY-----\nMIIEow...\n-----END RSA PRIVATE KEY-----`,
  'aws-access-key': `key id ${'AKIA'}IOSFODNN7EXAMPLE`,
  'aws-secret-key': `aws_secret_access_key = ${'wJalrXUtnFEMI/K7MDENG/bPxRfiCY'}EXAMPLEKEY`,
  'github-token': `token ${'ghp_'}${'a'.repeat(36)}`,
  'slack-token': `${'xoxb'}-123456789012-abcdefghij`,
  'api-key': `OPENAI=${'sk-'}proj-${'Z'.repeat(24)}`,
  'bearer-token': `Authorization: ${'Bearer'} abcdefghijklmnop.qrstu`,
  jwt: `${'eyJ'}hbGciOiJIUzI1NiJ9.${'eyJ'}zdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpM`,
};

describe('findCredentialShapes', () => {
  for (const [kind, text] of Object.entries(samples))
    it(`recognises a ${kind}`, () => {
      expect(findCredentialShapes(`before ${text} after`)).toContain(kind);
    });

  it('recognises a fine-grained GitHub token', () => {
    expect(findCredentialShapes(`github_pat_${'A1'.repeat(30)}`)).toEqual(['github-token']);
  });

  it('reports each kind once, in a stable order', () => {
    const text = `${samples.jwt} ${samples['aws-access-key']} ${samples.jwt}`;
    expect(findCredentialShapes(text)).toEqual(['aws-access-key', 'jwt']);
  });

  it('ignores look-alikes that are too short to be credentials', () => {
    for (const text of [
      'ask-me',
      'sk-short',
      'Bearer me',
      'AKIA123',
      'ghp_abc',
      'the secret is out',
    ])
      expect(findCredentialShapes(text), text).toEqual([]);
  });

  it('does not flag ordinary prose', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z ,.'!?]{0,300}$/), (text) => {
        expect(findCredentialShapes(text)).toEqual([]);
      }),
    );
  });
});
