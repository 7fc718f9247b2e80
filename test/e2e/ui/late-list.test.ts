import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { launchBrowser, loginLink, type Browser } from './browser.js';

/**
 * A server page opened while its server is still starting, in Debian's Chromium: the
 * first listing misses the list deadline (here 300 ms, against a server that takes 1.5 s
 * to answer initialize, as a busy machine can make any server), and the page fills in by
 * itself once the list arrives, without a Refresh.
 */
describe('a server page whose server lists late', () => {
  let daemon: RunningDaemon;
  let browser: Browser;

  beforeAll(async () => {
    daemon = await startDaemon({ COFFER_LIST_TIMEOUT_MS: '300' });
    await addFixture(daemon, 'fixture', ['--scenario', 'basic', '--init-delay-ms', '1500']);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('shows the tools once they are listed', async () => {
    const { page } = browser;
    await page.goto(await loginLink(daemon));
    await page.goto(`${daemon.baseUrl}/#/servers/fixture`);
    await page.getByText('did not list its tools in time').first().waitFor();
    await page.getByRole('heading', { name: 'Try a tool' }).waitFor();
    await expect(page.getByRole('option', { name: 'echo', exact: true }).count()).resolves.toBe(1);
  });
});
