import { readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as FIXTURE,
} from '../../support/running-daemon.js';
import { filesUnder, runCoffer } from './run-coffer.js';

/** Distinct and unlikely anywhere by chance, so a hit is a leak. */
const SECRET = `sk-leaktest-${Math.random().toString(36).slice(2)}-Zq8`;

function text(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((item) => item.text ?? '').join('');
}

describe('a secret is used end to end and found nowhere else', () => {
  let daemon: RunningDaemon;
  let client: Client;
  const responses: string[] = [];
  const api = async (method: string, path: string, body?: unknown) => {
    const result = await daemon.api(method, path, body);
    responses.push(JSON.stringify(result.body));
    return result;
  };

  beforeAll(async () => {
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file', COFFER_LOG_LEVEL: 'debug' });
  });
  afterAll(() => daemon.stop());

  it('registers a server with --secret-env, the value piped on stdin', async () => {
    const added = await runCoffer(
      daemon.env,
      ['mcp', 'add', 'vault', '--secret-env', 'VAULT_TOKEN', '--from-stdin', '--', 'node', FIXTURE],
      `${SECRET}\n`,
    );
    expect(added.stderr).toMatch(/no OS keychain in use.*secrets\.json/);
    expect(added.stdout).toMatch(/Stored env "VAULT_TOKEN" of "vault" in .*secrets\.json/);
    expect(added.stdout).toMatch(/Added server "vault"/);
    expect(added.code).toBe(0);
    expect(added.stdout + added.stderr).not.toContain(SECRET);
  });

  it('hands the value to the upstream at spawn time, and redacts it from what comes back', async () => {
    client = await daemon.client({ name: 'leak-test' });
    const result = await client.request(
      { method: 'tools/call', params: { name: 'vault__env', arguments: { name: 'VAULT_TOKEN' } } },
      (await import('@modelcontextprotocol/sdk/types.js')).CallToolResultSchema,
    );
    // The marker stands where the upstream printed the value: it had it (issue 20.3).
    expect(text(result)).toBe('[redacted: secret vault/env/VAULT_TOKEN]');
  });

  it('shows names only in the API, `coffer mcp show` and `coffer secrets list`', async () => {
    const show = await runCoffer(daemon.env, ['mcp', 'show', 'vault', '--json']);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout).server.secret_env).toEqual(['VAULT_TOKEN']);
    const human = await runCoffer(daemon.env, ['mcp', 'show', 'vault']);
    expect(human.stdout).toMatch(/secret env: +VAULT_TOKEN \(stored\)/);
    const list = await runCoffer(daemon.env, ['secrets', 'list', '--json']);
    expect(JSON.parse(list.stdout).secrets).toEqual([
      { server: 'vault', kind: 'env', name: 'VAULT_TOKEN', stored: true, referenced: true },
    ]);
    for (const run of [show, human, list]) expect(run.stdout + run.stderr).not.toContain(SECRET);

    await api('GET', '/servers');
    await api('GET', '/servers/vault');
    await api('GET', '/servers/vault/capabilities');
    await api('GET', '/secrets');
    await api('GET', '/status');
    await expect
      .poll(async () => ((await api('GET', '/activity')).body.activity as unknown[]).length)
      .toBeGreaterThan(1);
    await api('POST', '/servers/vault/test');
    expect(responses.some((body) => body.includes(SECRET))).toBe(false);
  });

  it('is in no file under COFFER_HOME but secrets.json, which is 0600 like daemon.json and coffer.db', async () => {
    await client.close();
    // Wait for the writers to reach the disk: every activity entry is logged when recorded and
    // stored in a later batch, so the store has caught up once it holds as many as the log names.
    const log = join(daemon.home, 'logs', 'coffer.log');
    await eventually(async () => {
      const logged = readFileSync(log, 'utf8').split('"activity":{').length - 1;
      const stored = (await api('GET', '/activity?limit=1000')).body.activity as unknown[];
      expect(logged).toBeGreaterThan(0);
      expect(stored).toHaveLength(logged);
    });
    const files = filesUnder(daemon.home);
    const names = files.map((file) => basename(file));
    expect(names).toEqual(
      expect.arrayContaining(['coffer.db', 'coffer.log', 'upstream-vault.log']),
    );
    const leaking = files.filter(
      (file) => basename(file) !== 'secrets.json' && readFileSync(file).includes(SECRET),
    );
    expect(leaking).toEqual([]);
    expect(readFileSync(join(daemon.home, 'secrets.json'), 'utf8')).toContain(SECRET);
    for (const name of ['daemon.json', 'secrets.json', 'coffer.db'])
      expect(statSync(join(daemon.home, name)).mode & 0o777, name).toBe(0o600);
  });

  it('fails a spawn with SECRET_NOT_FOUND naming the secret and the command to set it', async () => {
    const removed = await runCoffer(daemon.env, [
      'secrets',
      'remove',
      'vault',
      '--env',
      'VAULT_TOKEN',
    ]);
    expect(removed.code).toBe(0);
    const test = await api('POST', '/servers/vault/test');
    expect(test.body.ok).toBe(false);
    expect(test.body.error).toEqual({
      code: 'SECRET_NOT_FOUND',
      message: expect.stringMatching(/needs the secret env "VAULT_TOKEN", which is not set/),
      hint: 'set it with `coffer secrets set vault --env VAULT_TOKEN`',
    });
    const cli = await runCoffer(daemon.env, ['mcp', 'test', 'vault']);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toMatch(/VAULT_TOKEN/);
    expect(cli.stderr).toContain('coffer secrets set vault --env VAULT_TOKEN');

    const single = await daemon.client({ server: 'vault' }).catch((error: unknown) => error);
    expect(String(single)).toMatch(/VAULT_TOKEN/);
    const again = await runCoffer(
      daemon.env,
      ['secrets', 'set', 'vault', '--env', 'VAULT_TOKEN', '--from-stdin'],
      SECRET,
    );
    expect(again.code).toBe(0);
    const retest = await api('POST', '/servers/vault/test');
    expect(retest.body.ok).toBe(true);
  });
});
