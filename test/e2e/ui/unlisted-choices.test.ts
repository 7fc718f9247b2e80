import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { runCoffer } from '../secrets/run-coffer.js';
import { launchBrowser, loginLink, type Browser } from './browser.js';

/**
 * A choice kept for a tool the server does not list (`coffer mcp disable fixture --tool
 * ech`, a typo: kept, it applies if it appears) is shown "not listed now", but the Tools
 * tab used to count it as one of the server's tools: "Tools 18", "16 of 18 enabled" for a
 * server whose header says 17 tools. It counts what the server lists, and says the rest.
 */
describe('the Tools tab with a choice for a tool the server does not list', () => {
  let daemon: RunningDaemon;
  let browser: Browser;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'fixture');
    for (const tool of ['echo', 'ech']) {
      const run = await runCoffer(daemon.env, ['mcp', 'disable', 'fixture', '--tool', tool]);
      expect(run.code, run.stderr).toBe(0);
    }
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('counts the 17 tools listed, and says the other choice apart', async () => {
    const { page } = browser;
    await page.goto(await loginLink(daemon));
    await page.goto(`${daemon.baseUrl}/#/servers/fixture`);
    await page.getByText('17 tools · 1 prompt · 1 resource · 1 resource template').waitFor();
    const tab = page.getByRole('tab', { name: /^Tools/ });
    await expect.poll(() => tab.innerText()).toMatch(/^Tools\s+17$/);
    await page.getByText('16 of 17 enabled · 1 not listed now').waitFor();
    await page.locator('.capability', { hasText: 'not listed now' }).getByText('ech').waitFor();
  });
});
