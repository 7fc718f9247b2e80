import { afterAll, beforeAll, describe, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { launchBrowser, loginLink, type Browser } from './browser.js';

/**
 * A UI page left open while the daemon restarts, in Debian's Chromium: the new daemon
 * does not know the browser's session, so the page says it is signed out and what to run,
 * instead of a quiet "Offline" over what it showed; after `coffer ui` it is live again.
 */
describe('a UI page whose daemon restarted', () => {
  let first: RunningDaemon | undefined;
  let second: RunningDaemon | undefined;
  let browser: Browser;

  beforeAll(async () => {
    first = await startDaemon();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await first?.stop();
    await second?.stop();
  });

  it('says it is signed out, and goes live again after `coffer ui`', async () => {
    const { page, context } = browser;
    const running = first!;
    await page.goto(await loginLink(running));
    await page.getByRole('heading', { name: 'Servers' }).waitFor();
    await page.locator('.live-live').waitFor();
    const notice = page.getByText('This page is signed out of Coffer');
    await running.stop();
    first = undefined;
    // An action while no daemon runs says what to do about it, not "is it running?".
    await page.getByText('Offline', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Add your first server' }).click();
    await page.getByLabel('Name').fill('files');
    await page.getByLabel('Command').fill('node');
    await page.getByRole('button', { name: 'Add server' }).click();
    await page
      .getByText(
        'Cannot reach the Coffer daemon: it is not running. Start it with `coffer ui` in a terminal, which signs this page in again.',
      )
      .waitFor();
    // The same port, so the same origin and cookie name: a restart as the user sees it.
    second = await startDaemon({ COFFER_PORT_RANGE: `${running.port}-${running.port}` });
    await notice.waitFor();
    await page.getByText('Signed out', { exact: true }).waitFor();
    const tab = await context.newPage();
    await tab.goto(await loginLink(second));
    await tab.getByRole('heading', { name: 'Servers' }).waitFor();
    await page.locator('.live-live').waitFor();
    await notice.waitFor({ state: 'detached' });
  });
});
