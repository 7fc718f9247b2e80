import { describe, expect, it } from 'vitest';
import { refuseCredentials, refuseForeignSecrets } from '../../../src/domain/secret-refusals.js';

const hit = { name: 'GITHUB_TOKEN', owners: ['github'] };

describe('refuseForeignSecrets', () => {
  it('lets a server receive its own secret', () => {
    expect(() => refuseForeignSecrets([hit], 'github')).not.toThrow();
  });

  it('refuses another server secret with SECRET_BLOCKED, naming it without its value', () => {
    expect(() => refuseForeignSecrets([hit], 'notes')).toThrow(
      expect.objectContaining({
        code: 'SECRET_BLOCKED',
        message: expect.stringContaining('GITHUB_TOKEN') as string,
        data: { server: 'notes', secrets: ['GITHUB_TOKEN'] },
      }),
    );
  });
});

describe('refuseCredentials', () => {
  it('only refuses when blocking is on and something was found', () => {
    expect(() => refuseCredentials(['jwt'], 'notes', false)).not.toThrow();
    expect(() => refuseCredentials([], 'notes', true)).not.toThrow();
    expect(() => refuseCredentials(['jwt', 'api-key'], 'notes', true)).toThrow(
      expect.objectContaining({
        code: 'CREDENTIAL_BLOCKED',
        data: { server: 'notes', credentials: ['jwt', 'api-key'] },
      }),
    );
  });
});
