import { readFileSync, statSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiFixture, type ApiFixture } from '../activity/api-fixture.js';

const VALUE = 'ghp_S3cr3t-Value-That-Must-Not-Leak';

describe('/api/v1/secrets', () => {
  let api: ApiFixture;
  beforeEach(async () => {
    api = await createApiFixture();
    const server = {
      name: 'github',
      transport: 'stdio',
      command: 'node',
      secret_env: ['GITHUB_TOKEN'],
    };
    expect((await api.call('POST', '/servers', server)).status).toBe(201);
  });
  afterEach(() => api.close());

  it('stores a value (204), lists names only, and deletes it', async () => {
    const set = await api.call('POST', '/secrets', {
      server: 'github',
      kind: 'env',
      name: 'GITHUB_TOKEN',
      value: VALUE,
    });
    expect(set.status).toBe(204);
    expect(api.catalog.forgotten).toContain('github');
    expect(statSync(api.secretsFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(api.secretsFile, 'utf8')).toContain(VALUE);

    const list = await api.call('GET', '/secrets');
    expect(list.json).toEqual({
      store: {
        backend: 'file',
        location: api.secretsFile,
        reason: 'COFFER_KEYCHAIN=file is set',
      },
      secrets: [
        { server: 'github', kind: 'env', name: 'GITHUB_TOKEN', stored: true, referenced: true },
      ],
    });

    const removed = await api.call('DELETE', '/secrets/github/env/GITHUB_TOKEN');
    expect(removed.status).toBe(204);
    const after = await api.call('GET', '/secrets?server=github');
    expect(after.json.secrets).toEqual([
      { server: 'github', kind: 'env', name: 'GITHUB_TOKEN', stored: false, referenced: true },
    ]);
    const again = await api.call('DELETE', '/secrets/github/env/GITHUB_TOKEN');
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('SECRET_NOT_FOUND');
  });

  it('adds a secret it stores to the definition that did not name it yet', async () => {
    const remote = { name: 'docs', transport: 'http', url: 'http://127.0.0.1:9/mcp' };
    expect((await api.call('POST', '/servers', remote)).status).toBe(201);
    const body = {
      server: 'docs',
      kind: 'header',
      name: 'Authorization',
      value: `Bearer ${VALUE}`,
    };
    expect((await api.call('POST', '/secrets', body)).status).toBe(204);
    const { json } = await api.call('GET', '/servers/docs');
    expect(json.server.secret_headers).toEqual(['Authorization']);
    expect(api.notified).toContain('servers');
    const env = { ...body, name: 'DOCS_TOKEN', kind: 'env' };
    const refused = await api.call('POST', '/secrets', env);
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toContain('"docs" is a remote server');
  });

  it('refuses a header secret for a local server: it would never be sent', async () => {
    const body = { server: 'github', kind: 'header', name: 'X-Api-Key', value: VALUE };
    const refused = await api.call('POST', '/secrets', body);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({
      code: 'INVALID_INPUT',
      message:
        '"github" is a local server: its secrets are environment variables, not HTTP headers',
      hint: 'coffer secrets set github --env <NAME>',
    });
    const { json } = await api.call('GET', '/servers/github');
    expect(json.server.secret_headers).toEqual([]);
    expect((await api.call('GET', '/secrets?server=github')).json.secrets).toHaveLength(1);
  });

  it('records set and remove as admin actions, by name only', async () => {
    await api.call('POST', '/secrets', {
      server: 'github',
      kind: 'env',
      name: 'GITHUB_TOKEN',
      value: VALUE,
    });
    await api.call('DELETE', '/secrets/github/env/GITHUB_TOKEN');
    await api.writer.flush();
    const { json } = await api.call('GET', '/activity?limit=2');
    expect(
      (json.activity as { action: string; capability_key: string }[]).map((row) => [
        row.action,
        row.capability_key,
      ]),
    ).toEqual([
      ['secret.remove', 'env/GITHUB_TOKEN'],
      ['secret.set', 'env/GITHUB_TOKEN'],
    ]);
  });

  it('records each secret an edit drops (and so deletes) as removed, after the update', async () => {
    const secret = { server: 'github', kind: 'env', name: 'GITHUB_TOKEN', value: VALUE };
    await api.call('POST', '/secrets', secret);
    const patched = await api.call('PATCH', '/servers/github', { secret_env: [] });
    expect(patched.status).toBe(200);
    await api.writer.flush();
    const { json } = await api.call('GET', '/activity?limit=3');
    expect(
      (json.activity as { action: string; capability_key: string | null }[]).map((row) => [
        row.action,
        row.capability_key,
      ]),
    ).toEqual([
      ['secret.remove', 'env/GITHUB_TOKEN'],
      ['server.update', null],
      ['secret.set', 'env/GITHUB_TOKEN'],
    ]);
    expect(JSON.stringify(json)).not.toContain(VALUE);
  });

  it('refuses bad input without ever echoing the value', async () => {
    const cases: [unknown, number, string][] = [
      [{ server: 'nope', kind: 'env', name: 'X', value: VALUE }, 404, 'SERVER_NOT_FOUND'],
      [{ server: 'Bad Name', kind: 'env', name: 'X', value: VALUE }, 400, 'INVALID_SERVER_NAME'],
      [{ server: 'github', kind: 'file', name: 'X', value: VALUE }, 400, 'INVALID_INPUT'],
      [{ server: 'github', kind: 'env', name: '1X', value: VALUE }, 400, 'INVALID_INPUT'],
      [{ server: 'github', kind: 'env', name: 'X', value: '' }, 400, 'INVALID_INPUT'],
      [{ server: 'github', kind: 'env', name: 'X', value: 42 }, 400, 'INVALID_INPUT'],
      [
        { server: 'github', kind: 'header', name: 'X-Key', value: `${VALUE}\r\nX: y` },
        400,
        'INVALID_INPUT',
      ],
      [
        { server: 'github', kind: 'env', name: 'X', value: VALUE, extra: VALUE },
        400,
        'INVALID_INPUT',
      ],
      [`{"server":"github","kind":"env","name":"X","value":"${VALUE}"`, 400, 'INVALID_INPUT'],
      [`{"value": ${VALUE}}`, 400, 'INVALID_INPUT'],
    ];
    for (const [body, status, code] of cases) {
      const response = await api.call('POST', '/secrets', body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.json.error.code).toBe(code);
    }
    expect((await api.call('DELETE', '/secrets/github/token/X')).status).toBe(400);
    expect(api.bodies.some((body) => body.includes(VALUE))).toBe(false);
  });

  it('never answers a value, whatever route is asked', async () => {
    await api.call('POST', '/secrets', {
      server: 'github',
      kind: 'env',
      name: 'GITHUB_TOKEN',
      value: VALUE,
    });
    await api.writer.flush();
    for (const path of [
      '/secrets',
      '/servers',
      '/servers/github',
      '/activity',
      '/servers/github/capabilities',
    ])
      await api.call('GET', path);
    expect(api.bodies.length).toBeGreaterThan(5);
    expect(api.bodies.some((body) => body.includes(VALUE))).toBe(false);
  });
});
