import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { FIXTURE, launchBrowser, loginLink, screenshot, type Browser } from './browser.js';

const TOKEN = 'sk-agents-ui-e2e-7d1f0c';

/**
 * The Agents and Secrets pages as a user drives them, in Debian's Chromium, against a
 * daemon whose HOME is a fake one holding a Cursor config (as test/e2e/agents does):
 * import its server (the token goes to the keychain, never to the page), install
 * Coffer with a previewed diff, uninstall back to the original file, then replace and
 * delete the secret on the Secrets page.
 */
describe('Agents and Secrets pages in Chromium', () => {
  let root: string;
  let home: string;
  let cursorFile: string;
  let original: string;
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'coffer-e2e-ui-agents-'));
    home = join(root, 'home');
    cursorFile = join(home, '.cursor', 'mcp.json');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    const config = {
      mcpServers: {
        fixture: {
          command: process.execPath,
          args: [FIXTURE, '--scenario', 'basic'],
          env: { API_TOKEN: TOKEN, LOG_LEVEL: 'debug' },
        },
      },
    };
    original = `${JSON.stringify(config, null, 2)}\n`;
    writeFileSync(cursorFile, original);
    daemon = await startDaemon({
      HOME: home,
      USERPROFILE: home,
      XDG_CONFIG_HOME: join(home, '.config'),
    });
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(await loginLink(daemon));
    await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
  });

  const cursorCard = () => page.locator('.agent-card', { hasText: 'Cursor' });

  it('lists Cursor with its config file and Coffer not installed', async () => {
    await page.getByRole('link', { name: 'Agents' }).click();
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    await cursorCard().getByText(cursorFile).waitFor();
    await cursorCard().getByText('Coffer not installed').waitFor();
    await cursorCard().getByText('1 other server').waitFor();
  });

  it('previews the import by secret name, then imports: the token goes to the keychain', async () => {
    await cursorCard().getByRole('button', { name: 'Import…' }).click();
    const preview = page.getByRole('region', { name: 'Import preview' });
    await preview.getByText('API_TOKEN (env)').waitFor();
    await preview.getByText('will be added').waitFor();
    expect(await page.content()).not.toContain(TOKEN);
    await preview.getByRole('button', { name: 'Import 1 server' }).click();
    await preview.getByText('added', { exact: true }).waitFor();
    const { body } = await daemon.api('GET', '/servers/fixture');
    expect(body.server).toMatchObject({ env: { LOG_LEVEL: 'debug' }, secret_env: ['API_TOKEN'] });
    const secrets = await daemon.api('GET', '/secrets?server=fixture');
    expect(secrets.body.secrets).toContainEqual(
      expect.objectContaining({ name: 'API_TOKEN', stored: true, referenced: true }),
    );
    expect(await page.content()).not.toContain(TOKEN);
    await preview.getByRole('button', { name: 'Close' }).click();
    // Nothing is left to import from that file: the card says so and offers no import.
    await cursorCard().getByText('1 other server, in Coffer').waitFor();
    expect(await cursorCard().getByRole('button', { name: 'Import…' }).count()).toBe(0);
  });

  it('previews the install as a diff with values masked, then installs', async () => {
    await cursorCard().getByRole('button', { name: 'Install…' }).click();
    const preview = page.getByRole('region', { name: 'Install preview' });
    await preview.getByText(/would add "coffer" entry/).waitFor();
    await preview
      .getByText(
        '! "fixture" stays in this file and Coffer serves it too, so the agent lists its tools twice (to remove it here: tick "Also remove the servers imported from this file")',
      )
      .waitFor();
    await preview.getByLabel(/Also remove the servers imported/).check();
    await preview.getByText('- would remove "fixture" (now served by Coffer)').waitFor();
    await preview.locator('.diff-remove', { hasText: '"API_TOKEN": "***"' }).waitFor();
    await preview.locator('.diff-add', { hasText: '"coffer"' }).waitFor();
    expect(await page.content()).not.toContain(TOKEN);
    await screenshot(page, 'agents', { fullPage: true });
    await preview.getByRole('button', { name: 'Install now' }).click();
    await cursorCard().getByText('Coffer installed').waitFor();
    // The confirmation lets clicks through to what is under it (here, another agent's card).
    const toast = await page.locator('.toast').last().boundingBox();
    expect(toast).not.toBeNull();
    const [x, y] = [toast!.x + toast!.width / 2, toast!.y + toast!.height / 2];
    const hit = `document.elementFromPoint(${x}, ${y})`;
    expect(await page.evaluate(`${hit} !== null && ${hit}.closest('.toasts') === null`)).toBe(true);
    const { mcpServers } = JSON.parse(readFileSync(cursorFile, 'utf8')) as {
      mcpServers: Record<string, { args: string[] }>;
    };
    expect(Object.keys(mcpServers)).toEqual(['coffer']);
    expect(mcpServers['coffer']?.args.at(-1)).toBe('shim');
  });

  it('uninstalls back to the file exactly as it was', async () => {
    await cursorCard().getByRole('button', { name: 'Uninstall…' }).click();
    const preview = page.getByRole('region', { name: 'Uninstall preview' });
    await preview.getByText('= would restore the file exactly as it was before Coffer').waitFor();
    await preview.getByRole('button', { name: 'Uninstall now' }).click();
    await cursorCard().getByText('Coffer not installed').waitFor();
    expect(readFileSync(cursorFile, 'utf8')).toBe(original);
    // The entry is back in the file, and Coffer still has it.
    await cursorCard().getByText('1 other server, in Coffer').waitFor();
  });

  it('says at once when an imported server cannot start: its command is not on the PATH', async () => {
    const config = { mcpServers: { ghost: { command: 'coffer-no-such-command', args: [] } } };
    writeFileSync(join(home, '.claude.json'), JSON.stringify(config));
    await page.getByRole('link', { name: 'Servers' }).click();
    await page.getByRole('link', { name: 'Agents' }).click();
    const card = page.locator('.agent-card', { hasText: 'Claude Code' });
    await card.getByRole('button', { name: 'Import…' }).click();
    const preview = page.getByRole('region', { name: 'Import preview' });
    await preview.getByRole('button', { name: 'Import 1 server' }).click();
    const notice = preview.locator('.notice', {
      hasText: 'Before agents use the imported servers',
    });
    await notice.getByText(/command not found: coffer-no-such-command/).waitFor();
    await notice.getByText(/What to do: install coffer-no-such-command/).waitFor();
    await notice.getByRole('link', { name: 'ghost' }).waitFor();
    await preview.getByRole('button', { name: 'Close' }).click();
  });

  it('knows a server Coffer already has when another agent lists it, and notes it for install', async () => {
    const entry = {
      command: process.execPath,
      args: [FIXTURE, '--scenario', 'basic'],
      env: { API_TOKEN: TOKEN, LOG_LEVEL: 'debug' },
    };
    const vscodeFile = join(home, '.config', 'Code', 'User', 'mcp.json');
    mkdirSync(dirname(vscodeFile), { recursive: true });
    writeFileSync(vscodeFile, JSON.stringify({ servers: { fx: entry } }));
    await page.getByRole('link', { name: 'Servers' }).click();
    await page.getByRole('link', { name: 'Agents' }).click();
    const card = page.locator('.agent-card', { hasText: 'VS Code' });
    await card.getByRole('button', { name: 'Import…' }).click();
    const preview = page.getByRole('region', { name: 'Import preview' });
    await preview
      .getByText(
        'nothing to add: Coffer already has it as "fixture" (same command and settings; Coffer uses the API_TOKEN it holds)',
      )
      .waitFor();
    // The agent's own name for the entry, then the server Coffer has.
    const row = preview.locator('tbody tr').first();
    expect(await row.locator('td[data-label="Entry"]').textContent()).toMatch(/^fx → fixture/);
    await preview.getByRole('button', { name: 'Note 1 as served by Coffer' }).click();
    await page
      .getByText('Imported 0 of 1 entries from VS Code; 1 already served by Coffer')
      .waitFor();
    await preview.getByRole('button', { name: 'Close' }).waitFor();
    const { body } = await daemon.api('GET', '/servers');
    const servers = body.servers as { name: string }[];
    expect(servers.map((server) => server.name).sort()).toEqual(['fixture', 'ghost']);
    const plan = await daemon.api('POST', '/agents/vscode/install/preview', { replace: true });
    expect(plan.body.preview.summary).toContain('- would remove "fx" (now served by Coffer)');
    await preview.getByRole('button', { name: 'Close' }).click();
    await card.getByText('1 other server, in Coffer').waitFor();
    expect(await card.getByRole('button', { name: 'Import…' }).count()).toBe(0);

    // The same file reaching this daemon over HTTP too: the preview names that entry.
    const self = { type: 'http', url: `http://127.0.0.1:${daemon.port}/mcp` };
    writeFileSync(vscodeFile, JSON.stringify({ servers: { fx: entry, 'coffer-http': self } }));
    const twice = await daemon.api('POST', '/agents/vscode/install/preview', {});
    expect(twice.body.preview.summary).toContain(
      '! "coffer-http" reaches Coffer over HTTP, as the "coffer" entry does, so the agent lists every tool twice (to remove it here: tick "Also remove the servers imported from this file")',
    );
  });

  it("imports the JSON a server's README gives, pasted on the Add-a-server page", async () => {
    await page.getByRole('link', { name: 'Servers' }).click();
    await page.getByRole('link', { name: 'Add server' }).click();
    await page.getByText("Or paste the JSON from a server's README").click();
    const box = page.getByLabel("JSON from the server's README");
    await box.fill('npx -y some-server');
    await page.getByRole('button', { name: 'Preview the import' }).click();
    await page.getByText('This is not JSON: paste the whole snippet').waitFor();
    // As READMEs often give it: the entry alone, its token a stand-in.
    const notes = { command: process.execPath, args: [FIXTURE, '--scenario', 'basic'] };
    const entry = { ...notes, env: { NOTES_TOKEN: '<YOUR_TOKEN>' } };
    await box.fill(`"notes": ${JSON.stringify(entry, null, 2)}`);
    await page.getByRole('button', { name: 'Preview the import' }).click();
    const preview = page.getByRole('region', { name: 'Import preview' });
    await preview.getByText('will be added').waitFor();
    await preview
      .getByText(
        'env NOTES_TOKEN is a stand-in ("<YOUR_TOKEN>"), not a value: nothing is stored; set it before use',
      )
      .waitFor();
    await preview.getByRole('button', { name: 'Import 1 server' }).click();
    await preview.getByText('added', { exact: true }).waitFor();
    await preview.locator('.notice', { hasText: 'NOTES_TOKEN' }).waitFor();
    const { body } = await daemon.api('GET', '/secrets?server=notes');
    expect(body.secrets).toEqual([expect.objectContaining({ name: 'NOTES_TOKEN', stored: false })]);
    expect((await daemon.api('DELETE', '/servers/notes')).status).toBe(204);
  });

  it('answers bad agent requests with stable codes and writes nothing', async () => {
    const unknown = await daemon.api('POST', '/agents/nope/install/preview', {});
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('INVALID_INPUT');
    const scope = await daemon.api('POST', '/agents/cursor/install/preview', { scope: 'global' });
    expect(scope.status).toBe(400);
    const cut = await daemon.api('POST', '/agents/claude-desktop/import/preview', {
      text: '{"mcpServers": {"a": ',
    });
    expect(cut.status).toBe(400);
    expect(cut.body.error.message).toMatch(/^Cannot read the pasted text:1:\d+: /);
    const empty = await daemon.api('POST', '/agents/vscode/import', { text: '' });
    expect(empty.body.error.message).toContain('text is empty');
    const both = await daemon.api('POST', '/agents/claude-code/import/preview', {
      scope: 'local',
      text: '{"mcpServers": {}}',
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toContain('scope and text name two different sources');
    const stale = await daemon.api('POST', '/agents/cursor/install', {
      expected_sha256: '0'.repeat(64),
    });
    expect(stale.status).toBe(400);
    expect(stale.body.error.message).toContain('changed since the preview');
    expect(readFileSync(cursorFile, 'utf8')).toBe(original);
  });

  it('replaces and deletes a secret on the Secrets page, by name only', async () => {
    await page.getByRole('link', { name: 'Secrets' }).click();
    await page.getByRole('heading', { level: 1, name: 'Secrets' }).waitFor();
    const row = page.locator('tr', { hasText: 'API_TOKEN' });
    await row.getByRole('link', { name: 'fixture' }).waitFor();
    await row.getByText('Stored').waitFor();
    await row.getByRole('button', { name: 'Replace…' }).click();
    const replaced = 'sk-replaced-in-the-ui-42';
    await row.getByLabel(/New value/).fill(replaced);
    await row.getByRole('button', { name: 'Replace' }).click();
    await row.getByRole('button', { name: 'Replace…' }).waitFor();
    const agent = await daemon.client({ name: 'secrets-e2e' });
    await eventually(async () => {
      const seen = await agent.callTool({ name: 'fixture__env', arguments: { name: 'API_TOKEN' } });
      // The new value reached the upstream; Coffer redacts it on the way back (issue 20.3).
      expect(seen.content).toEqual([
        { type: 'text', text: '[redacted: secret fixture/env/API_TOKEN]' },
      ]);
    });
    expect(await page.content()).not.toContain(replaced);
    await screenshot(page, 'secrets');
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      }),
    );
    await row.getByRole('button', { name: 'Delete API_TOKEN of fixture' }).click();
    // fixture still names it: the question says it will not start without a value.
    expect(await asked).toContain('fixture still names it, and will not start until API_TOKEN');
    await row.getByText('Missing').waitFor();
    await row.getByRole('button', { name: 'Set…' }).click();
    await row.getByRole('button', { name: 'Store', exact: true }).waitFor();
    await row.getByRole('button', { name: 'Cancel' }).click();
  });

  it('adds a secret only once a server is chosen, of the kind that server takes', async () => {
    const form = page.locator('form.secret-form').last();
    const store = form.getByRole('button', { name: 'Store secret' });
    expect(await form.getByLabel('Server').inputValue()).toBe('');
    await form.getByLabel('Environment variable').fill('EXTRA_TOKEN');
    await form.getByLabel(/New value/).fill('sk-extra-ui-e2e-7');
    expect(await store.isDisabled()).toBe(true);
    await form.getByLabel('Server').selectOption('fixture');
    await store.click();
    const row = page.locator('tr', { hasText: 'EXTRA_TOKEN' });
    await row.getByText('Stored').waitFor();
    expect(await row.locator('.kind').textContent()).toBe('env');
  });

  it('drops the secrets of a server removed elsewhere from the Secrets page, without a reload', async () => {
    const added = await daemon.api('POST', '/servers', {
      name: 'spare',
      transport: 'stdio',
      command: process.execPath,
      args: [FIXTURE],
    });
    expect(added.status).toBe(201);
    const stored = await daemon.api('POST', '/secrets', {
      server: 'spare',
      kind: 'env',
      name: 'SPARE_TOKEN',
      value: 'sk-spare-ui-e2e-31',
    });
    expect(stored.status).toBeLessThan(300);
    await page.getByRole('link', { name: 'Servers' }).click();
    await page.getByRole('link', { name: 'Secrets' }).click();
    const row = page.locator('tr', { hasText: 'SPARE_TOKEN' });
    await row.getByText('Stored').waitFor();
    expect((await daemon.api('DELETE', '/servers/spare')).status).toBe(204);
    await row.waitFor({ state: 'detached' });
  });

  it('offers the import again, without a reload, once the server is removed elsewhere', async () => {
    await page.getByRole('link', { name: 'Agents' }).click();
    await cursorCard().getByText('1 other server, in Coffer').waitFor();
    expect((await daemon.api('DELETE', '/servers/fixture')).status).toBe(204);
    await cursorCard().getByRole('button', { name: 'Import…' }).waitFor();
    await cursorCard().getByText('1 other server', { exact: true }).waitFor();
  });
});
