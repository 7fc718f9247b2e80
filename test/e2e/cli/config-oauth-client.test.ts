import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCoffer } from '../secrets/run-coffer.js';
import { createCliHarness, type CliHarness } from './cli-harness.js';

const CLIENT_SECRET = `client-secret-${Math.random().toString(36).slice(2)}`;
/** Nothing listens there: adding a server does not dial it. */
const URL = 'http://127.0.0.1:9/mcp';

/** A pre-registered OAuth client (`--oauth-client-id`) is shown and travels with the file. */
let source: CliHarness;
let target: CliHarness;
let scratch: string;
beforeAll(() => {
  source = createCliHarness({ COFFER_KEYCHAIN: 'file' });
  target = createCliHarness({ COFFER_KEYCHAIN: 'file' });
  scratch = mkdtempSync(join(tmpdir(), 'coffer-e2e-oauth-client-'));
});
afterAll(async () => {
  await Promise.all([source.close(), target.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

describe('a pre-registered OAuth client id', () => {
  const file = () => join(scratch, 'coffer.json');

  it('is shown by `coffer mcp show`, its secret never', async () => {
    const added = await runCoffer(
      source.env,
      [
        'mcp',
        'add',
        'corp',
        '--url',
        URL,
        '--oauth-client-id',
        'coffer-desktop',
        '--oauth-client-secret-from-stdin',
      ],
      `${CLIENT_SECRET}\n`,
    );
    expect(added.code, added.stderr).toBe(0);
    const human = await source.run('mcp', 'show', 'corp');
    expect(human.stdout).toMatch(/oauth client: +coffer-desktop \(pre-registered\)/);
    const json = await source.run('mcp', 'show', 'corp', '--json');
    expect(JSON.parse(json.stdout).server.oauth_client_id).toBe('coffer-desktop');
    for (const run of [human, json]) expect(run.stdout + run.stderr).not.toContain(CLIENT_SECRET);
    // The daemon's snapshot holds what an export would (docs/RECOVERY.md).
    const snapshot = () => {
      try {
        return readFileSync(join(source.home, 'config-snapshot.json'), 'utf8');
      } catch {
        return '';
      }
    };
    await expect.poll(snapshot).toMatch(/"oauth_client_id":\s*"coffer-desktop"/);
    expect(snapshot()).not.toContain(CLIENT_SECRET);
  });

  it('is exported without its secret, and imported on another machine', async () => {
    const exported = await source.run('config', 'export', '--file', file());
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(file(), 'utf8');
    expect(JSON.parse(text).servers.corp).toMatchObject({
      url: URL,
      oauth_client_id: 'coffer-desktop',
    });
    expect(text).not.toContain(CLIENT_SECRET);

    const dry = await target.run('config', 'import', file(), '--dry-run');
    expect(dry.stdout).toContain('oauth client id: coffer-desktop (added');
    const imported = await target.run('config', 'import', file());
    expect(imported.code, imported.stderr).toBe(0);
    const shown = await target.run('mcp', 'show', 'corp', '--json');
    expect(JSON.parse(shown.stdout).server.oauth_client_id).toBe('coffer-desktop');
    const again = await target.run('config', 'import', file());
    expect(again.stdout).toMatch(/= corp: unchanged/);
  });

  it('sets a changed id back, and a file without one leaves it alone', async () => {
    const edited = JSON.parse(readFileSync(file(), 'utf8'));
    edited.servers.corp.oauth_client_id = 'coffer-laptop';
    const path = join(scratch, 'edited.json');
    writeFileSync(path, JSON.stringify(edited));
    const set = await target.run('config', 'import', path);
    expect(set.stdout).toContain('oauth client id: coffer-laptop (was coffer-desktop');
    delete edited.servers.corp.oauth_client_id;
    writeFileSync(path, JSON.stringify(edited));
    const left = await target.run('config', 'import', path);
    expect(left.stdout).toMatch(/= corp: unchanged/);
    const shown = await target.run('mcp', 'show', 'corp', '--json');
    expect(JSON.parse(shown.stdout).server.oauth_client_id).toBe('coffer-laptop');
  });
});
