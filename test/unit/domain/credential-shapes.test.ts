import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findCredentialShapes,
  maskedUrl,
  urlCredentials,
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

describe('urlCredentials', () => {
  it('names a password before the host and query parameters that are credentials, never values', () => {
    const url = `https://user:hunter2pass@mcp.example/mcp?api_key=abc123&region=eu&q=${'sk-'}${'abcdefghijklmnopqrstuvwxyz123456'}`;
    const found = urlCredentials(url);
    expect(found).toEqual([
      'a password before the host',
      'its query parameter "api_key"',
      'its query parameter "q"',
    ]);
    expect(JSON.stringify(found)).not.toMatch(/hunter2|abc123|sk-/);
  });

  it('finds nothing in a plain URL, an empty key, or no URL', () => {
    expect(urlCredentials('https://mcp.example/mcp?region=eu&page=2')).toEqual([]);
    expect(urlCredentials('https://user@mcp.example/mcp?token=')).toEqual([]);
    expect(urlCredentials(undefined)).toEqual([]);
    expect(urlCredentials('not a url')).toEqual([]);
  });
});

describe('maskedUrl', () => {
  const key = `${'sk-'}${'abcdefghijklmnopqrstuvwxyz123456'}`;

  it('masks a password, a key in the path and credential query parameters, keeping the rest', () => {
    const url = `https://user:hunter2pass@mcp.example/api/mcp/s/${key}/mcp?api_key=abc123&region=eu`;
    expect(urlCredentials(url)).toContain('a part of its path');
    expect(maskedUrl(url)).toBe(
      'https://user:***@mcp.example/api/mcp/s/***/mcp?api_key=***&region=eu',
    );
  });

  it('gives back a URL without credentials as it is, unnormalised', () => {
    for (const url of ['https://MCP.example:443/mcp', 'http://127.0.0.1:9/x?q=1', 'not a url'])
      expect(maskedUrl(url)).toBe(url);
  });
});
