import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { launchBrowser, loginLink, type Browser } from './browser.js';

/**
 * The Add form in Chromium with `node build/index.js` and no working directory. The
 * daemon does not run where the user's shell is, so such a server used to be added and
 * then fail to start from the daemon's folder ("Cannot find module '/root/build/…'").
 * The form now says so under Working directory while the path is relative and no folder
 * is given.
 */
describe('the Add form with a relative path and no working directory', () => {
  let daemon: RunningDaemon;
  let browser: Browser;

  beforeAll(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('says the path is relative and where to give its folder, until it is given', async () => {
    const { page } = browser;
    await page.goto(await loginLink(daemon));
    await page.goto(`${daemon.baseUrl}/#/add-server`);
    await page.getByRole('heading', { name: 'Add a server' }).waitFor();
    const cwdHint = page
      .locator('.field', { has: page.getByLabel('Working directory') })
      .locator('.field-hint');
    await page.getByLabel('Command').fill('node');
    await page.getByLabel('Arguments').fill('--inspect\nbuild/index.js');
    await expect
      .poll(() => cwdHint.innerText())
      .toMatch(/^"build\/index\.js" is a relative path: give the folder it is in here/);
    await page.getByLabel('Working directory').fill('/home/you/code/mine');
    await expect.poll(() => cwdHint.innerText()).toMatch(/^Optional: where relative paths/);
    await page.getByLabel('Working directory').fill('');
    await page.getByLabel('Arguments').fill('-y\n@modelcontextprotocol/server-filesystem');
    await expect.poll(() => cwdHint.innerText()).toMatch(/^Optional: where relative paths/);
  });
});
