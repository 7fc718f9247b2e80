import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addNodeServer,
  fixtureServer,
  startDaemon,
  type RunningDaemon,
} from '../../support/running-daemon.js';
import { launchBrowser, loginLink, type Browser } from './browser.js';

/**
 * A server page that could not list (the server's program was not there yet), in Debian's
 * Chromium: once the cause is fixed, "Test connection" connects and the page lists the
 * tools in place of the failure it showed, without a Refresh.
 */
describe('"Test connection" after a failure', () => {
  let daemon: RunningDaemon;
  let browser: Browser;
  let program: string;

  beforeAll(async () => {
    daemon = await startDaemon();
    // Not written yet: node exits 1 ("Cannot find module"), so the first list fails.
    program = join(daemon.home, 'late-program.mjs');
    await addNodeServer(daemon, 'late', [program]);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('says what to do when it fails, and lists the tools once it connects', async () => {
    const { page } = browser;
    await page.goto(await loginLink(daemon));
    await page.goto(`${daemon.baseUrl}/#/servers/late`);
    await page.getByText('Could not load').first().waitFor();
    // A test that fails says what to do about it, as the server's last error does.
    await page.getByRole('button', { name: 'Test connection' }).click();
    const failed = page.locator('.notice', { hasText: /Connection failed after \d+ ms/ });
    await failed.getByText('What to do:', { exact: false }).waitFor();
    writeFileSync(program, `await import(${JSON.stringify(pathToFileURL(fixtureServer).href)});\n`);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/Connected in \d+ ms/).waitFor();
    await page.getByRole('heading', { name: 'Try a tool' }).waitFor();
    await expect(page.getByRole('option', { name: 'echo', exact: true }).count()).resolves.toBe(1);
    expect(await page.getByText('Could not load').count()).toBe(0);
  });
});
