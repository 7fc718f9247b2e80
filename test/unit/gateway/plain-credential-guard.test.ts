import { describe, expect, it } from 'vitest';
import { serverDefinitionSchema } from '../../../src/domain/server-definition.js';
import { refusingPlainCredentials } from '../../../src/gateway/plain-credential-guard.js';
import { recordingStore } from '../../support/recording-server-store.js';

const local = serverDefinitionSchema.parse({ name: 'gh', transport: 'stdio', command: 'npx' });
const remote = serverDefinitionSchema.parse({
  name: 'api',
  transport: 'http',
  url: 'http://x.test/',
});
const githubToken = `ghp_${'a'.repeat(36)}`;

describe('refusingPlainCredentials', () => {
  it('refuses a credential-shaped env or header value, by create or by update, and stores nothing', async () => {
    const { repository, written } = recordingStore(local);
    const servers = refusingPlainCredentials(repository);
    const created = await servers
      .create({ ...local, env: { LOG_LEVEL: 'debug', GITHUB_TOKEN: githubToken } })
      .catch((error: unknown) => error);
    expect(created).toMatchObject({
      code: 'INVALID_INPUT',
      message:
        "env.GITHUB_TOKEN: holds a credential (github-token); a secret does not go into a server's definition",
      hint: expect.stringContaining('coffer secrets set gh --env GITHUB_TOKEN'),
    });
    expect(JSON.stringify(created)).not.toContain(githubToken);
    const updated = await servers
      .update('api', { headers: { Authorization: 'Bearer abcdefghijklmnop0123' } })
      .catch((error: unknown) => error);
    expect(updated).toMatchObject({
      message: expect.stringMatching(
        /^headers\.Authorization: holds a credential \(bearer-token\)/,
      ),
    });
    expect(written).toEqual([]);
  });

  it('passes plain values, secret names and changes without env or headers', async () => {
    const { repository, written } = recordingStore(remote);
    const servers = refusingPlainCredentials(repository);
    await servers.create({
      ...remote,
      headers: { 'X-Team': 'blue' },
      secret_headers: ['Authorization'],
    });
    await servers.update('api', { enabled: false });
    await servers.update('gh', { env: { TOKEN_LIMIT: '1000' } });
    expect(written).toEqual(['create api', 'update api', 'update gh']);
  });
});
