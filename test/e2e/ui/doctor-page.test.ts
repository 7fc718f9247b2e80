import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { FIXTURE, launchBrowser, loginLink, screenshot, type Browser } from './browser.js';

interface Report {
  findings: { code: string; level: string; subject: string; fix: string | null }[];
  servers: { name: string; command_path: string | null; started_at: string | null }[];
}

/**
 * The Doctor page in Debian's Chromium: the report of GET /api/v1/doctor, findings first.
 * The healthy server's command is found only on the login shell's PATH (a fake $SHELL
 * answers `-ilc`, as nvm or Homebrew would), so the page shows where it resolved; the
 * secrets file is forced (COFFER_KEYCHAIN=file) so the keychain finding is the same on
 * every machine.
 */
describe('Doctor page in Chromium', () => {
  let scratch: string;
  let shellBin: string;
  let home: string;
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'coffer-e2e-doctor-ui-'));
    shellBin = join(scratch, 'login-bin');
    mkdirSync(shellBin);
    const server = join(shellBin, 'coffer-ui-mcp-server');
    writeFileSync(server, `#!/bin/sh\nexec "${process.execPath}" "${FIXTURE}" "$@"\n`);
    chmodSync(server, 0o755);
    const shell = join(scratch, 'fake-login-shell');
    writeFileSync(
      shell,
      `#!/bin/sh\nprintf '__COFFER_PATH__%s__COFFER_PATH__' '${shellBin}:/usr/bin:/bin'\n`,
    );
    chmodSync(shell, 0o755);
    // A short inherited PATH, so the page (and its screenshot) lists a PATH any machine has.
    // A home of its own: the report reads the agents' files there, never the user's.
    home = join(scratch, 'home');
    mkdirSync(home);
    daemon = await startDaemon({
      SHELL: shell,
      COFFER_KEYCHAIN: 'file',
      PATH: '/usr/bin:/bin',
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
    });
    const added = await daemon.api('POST', '/servers', {
      name: 'healthy',
      transport: 'stdio',
      command: 'coffer-ui-mcp-server',
    });
    expect(added.status).toBe(201);
    // An agent's listing starts it, so the report has a start time and how long it took.
    const agent = await daemon.client({ name: 'doctor-ui-agent' });
    expect((await agent.listTools()).tools.map((t) => t.name)).toContain('healthy__echo');
    browser = await launchBrowser();
    page = browser.page;
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: daemon.baseUrl,
    });
    await page.goto(await loginLink(daemon));
    await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });

  const verdict = () => page.getByRole('region', { name: /broken|worth knowing|All good/ });
  const serverRow = (name: string) =>
    page.locator('table.doctor-servers tbody tr', {
      has: page.getByRole('link', { name, exact: true }),
    });

  it('lists a healthy server with where its command resolves, and nothing broken', async () => {
    const { body } = (await daemon.api('GET', '/doctor')) as { body: Report };
    expect(body.servers).toEqual([
      expect.objectContaining({
        name: 'healthy',
        command_path: join(shellBin, 'coffer-ui-mcp-server'),
        started_at: expect.any(String),
      }),
    ]);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Doctor' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Doctor' }).waitFor();
    expect(page.url()).toBe(`${daemon.baseUrl}/#/doctor`);
    await verdict().getByRole('heading', { name: 'Working, with 1 worth knowing' }).waitFor();
    const keychain = page.locator('.finding', { hasText: 'KEYCHAIN_FALLBACK' });
    await keychain.getByText('Worth knowing').waitFor();
    expect(await page.locator('.finding-fail').count()).toBe(0);

    const row = serverRow('healthy');
    await row.locator('.badge-running').waitFor();
    await row.getByText(join(shellBin, 'coffer-ui-mcp-server')).waitFor();
    expect(await row.textContent()).toMatch(/took \d/);
    const setup = page.locator('.doctor-setup');
    await setup.getByText(`pid ${daemon.pid}, port ${daemon.port}`, { exact: false }).waitFor();
    await setup.getByText('COFFER_KEYCHAIN=file is set', { exact: false }).waitFor();
    await expect
      .poll(() => setup.locator('.doctor-path li').allTextContents())
      .toEqual([shellBin, '/usr/bin', '/bin']);
  });

  it('shows a server whose command does not exist as broken, with the fix to copy', async () => {
    const added = await daemon.api('POST', '/servers', {
      name: 'ghost',
      transport: 'stdio',
      command: 'coffer-no-such-command',
    });
    expect(added.status).toBe(201);
    await page.getByRole('button', { name: 'Check again' }).click();
    await verdict()
      .getByRole('heading', { name: /^Something is broken: 1 problem to fix, 1 worth knowing$/ })
      .waitFor();
    const finding = page.locator('.finding-fail', { hasText: 'COMMAND_NOT_FOUND' });
    await finding.getByRole('link', { name: 'ghost' }).waitFor();
    await finding.getByText('command not found: coffer-no-such-command').waitFor();
    // Broken comes before what is only worth knowing.
    expect(await page.locator('.finding').first().textContent()).toContain('COMMAND_NOT_FOUND');
    const { body } = (await daemon.api('GET', '/doctor')) as { body: Report };
    const fix = body.findings.find((f) => f.code === 'COMMAND_NOT_FOUND')?.fix;
    expect(fix).toContain('coffer mcp edit ghost -- <full path>');
    await finding
      .locator('.copy-code code')
      .getByText(fix ?? '', { exact: true })
      .waitFor();
    await finding.getByRole('button', { name: 'Copy the fix for ghost' }).click();
    await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()')).toBe(fix);
    await serverRow('ghost').getByText('not found').waitFor();
    await screenshot(page, 'doctor', { fullPage: true });
  });

  it('says all is good when there is no finding', async () => {
    // A keychain-less machine always has the KEYCHAIN_FALLBACK warning: the report is
    // the daemon's, with that finding left out, to see the state a set-up machine shows.
    expect((await daemon.api('DELETE', '/servers/ghost')).status).toBe(204);
    const { body } = (await daemon.api('GET', '/doctor')) as { body: Report };
    expect(body.findings.map((f) => f.code)).toEqual(['KEYCHAIN_FALLBACK']);
    await page.route('**/api/v1/doctor', async (route) => {
      const response = await route.fetch();
      const report = (await response.json()) as Report;
      const findings = report.findings.filter((f) => f.code !== 'KEYCHAIN_FALLBACK');
      await route.fulfill({ response, json: { ...report, findings } });
    });
    await page.getByRole('button', { name: 'Check again' }).click();
    await verdict().getByRole('heading', { name: 'All good: nothing is broken' }).waitFor();
    expect(await page.locator('.finding').count()).toBe(0);
    await page.unrouteAll({ behavior: 'wait' });
  });

  it('shows why the report did not come, and gets it on "Check again"', async () => {
    await page.route('**/api/v1/doctor', (route) => route.abort());
    await page.getByRole('button', { name: 'Check again' }).click();
    await page.getByRole('alert').getByText("Could not get the doctor's report").waitFor();
    await page.unrouteAll({ behavior: 'wait' });
    await page.getByRole('button', { name: 'Check again' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    await verdict().getByRole('heading', { name: 'Working, with 1 worth knowing' }).waitFor();
  });

  it('follows a server switched off and on without "Check again"', async () => {
    const row = serverRow('healthy');
    await row.locator('.badge-running').waitFor();
    expect((await daemon.api('POST', '/servers/healthy/disable')).status).toBe(200);
    await row.locator('.badge-disabled').waitFor();
    expect((await daemon.api('POST', '/servers/healthy/enable')).status).toBe(200);
    await row.locator('.badge-disabled').waitFor({ state: 'detached' });
  });

  it('names an agent whose Coffer entry no longer runs, with the fix', async () => {
    const agents = page.locator('table.doctor-agents');
    await page.getByText('Coffer is not installed in any agent yet.').waitFor();
    const cursorFile = join(home, '.cursor', 'mcp.json');
    mkdirSync(join(home, '.cursor'));
    const moved = {
      command: process.execPath,
      args: [join(scratch, 'moved', 'coffer.js'), 'shim'],
    };
    writeFileSync(cursorFile, JSON.stringify({ mcpServers: { coffer: moved } }));
    await page.getByRole('button', { name: 'Check again' }).click();
    const finding = page.locator('.finding-fail', { hasText: 'AGENT_SHIM_BROKEN' });
    await finding.getByText(/its Coffer script .*coffer\.js is not there/).waitFor();
    await finding.getByText('coffer agents install cursor', { exact: true }).waitFor();
    const row = agents.locator('tbody tr', { hasText: 'Cursor' });
    await row.getByText(cursorFile).waitFor();
    await row.locator('.doctor-missing', { hasText: 'is not there' }).waitFor();
    // The Agents page says the same, and its fix mends it.
    await page.getByRole('link', { name: 'Agents' }).click();
    const card = page.locator('.agent-card', { hasText: 'Cursor' });
    await card.getByText('Coffer entry broken').waitFor();
    await card.getByText(/is not there .*: install again to point it at this Coffer$/).waitFor();
    await card.getByRole('button', { name: 'Install again…' }).click();
    await page
      .getByRole('region', { name: 'Install preview' })
      .getByRole('button', { name: 'Install now' })
      .click();
    await card.getByText('Coffer installed').waitFor();
    expect(await card.getByText('Coffer entry broken').count()).toBe(0);
    await page.getByRole('link', { name: 'Doctor' }).click();
    await agents.locator('tbody tr', { hasText: 'Runs the shim' }).waitFor();
    expect(await page.locator('.finding', { hasText: 'AGENT_SHIM_BROKEN' }).count()).toBe(0);
    rmSync(join(home, '.cursor'), { recursive: true });
    await page.getByRole('button', { name: 'Check again' }).click();
    await verdict().getByRole('heading', { name: 'Working, with 1 worth knowing' }).waitFor();
  });

  it('fits a narrow screen, the menu wrapped with every section on it', async () => {
    await page.setViewportSize({ width: 390, height: 780 });
    await serverRow('healthy').waitFor();
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
    expect(await links.allTextContents()).toEqual([
      'Servers',
      'Agents',
      'Secrets',
      'Context',
      'Activity',
      'Doctor',
    ]);
    for (const link of await links.all()) {
      const box = await link.boundingBox();
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    }
  });
});
