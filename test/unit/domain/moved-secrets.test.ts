import { describe, expect, it } from 'vitest';
import { movedSecretsNote } from '../../../src/domain/moved-secrets.js';

const remote = (url: string, secret_headers: string[] = ['X-Api-Key']) => ({
  name: 'pkey',
  transport: 'http' as const,
  url,
  secret_headers,
});

describe('movedSecretsNote', () => {
  it('says which secret headers a new origin gets, and how to take them back', () => {
    expect(
      movedSecretsNote(
        remote('http://127.0.0.1:8673/key/mcp'),
        remote('http://127.0.0.1:8674/mcp'),
      ),
    ).toBe(
      'its secret headers (X-Api-Key) now go to http://127.0.0.1:8674, not http://127.0.0.1:8673: if that is not the same service, remove them (coffer mcp edit pkey --unset-header X-Api-Key)',
    );
  });

  it('says nothing for the same origin, no secret header, or a local server', () => {
    const before = remote('https://mcp.example.com/v1');
    expect(movedSecretsNote(before, remote('https://mcp.example.com/v2'))).toBeUndefined();
    expect(movedSecretsNote(before, remote('https://other.example.com/', []))).toBeUndefined();
    const local = { name: 'pkey', transport: 'stdio' as const, secret_headers: [] };
    expect(movedSecretsNote(before, local)).toBeUndefined();
    expect(movedSecretsNote(remote('not a url'), remote('https://x.example'))).toBeUndefined();
  });
});
