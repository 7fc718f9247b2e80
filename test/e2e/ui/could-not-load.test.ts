import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { launchBrowser, loginLink, type Browser } from './browser.js';

/**
 * A server listed once, then redefined to need a secret nobody stored: its page says why
 * it could not list, and that the tools shown are the ones seen before. The two used to
 * run together ("…which is not set The tools below…"): the error ends without a stop.
 */
describe('the Tools tab of a server that could not list again', () => {
  let daemon: RunningDaemon;
  let browser: Browser;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'fixture');
    // Listed once: its tools are remembered with the choices made for them.
    expect((await daemon.api('GET', '/servers/fixture/capabilities')).status).toBe(200);
    const patched = await daemon.api('PATCH', '/servers/fixture', { secret_env: ['API_TOKEN'] });
    expect(patched.status).toBe(200);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  it('says why, and what the tools below are, as two sentences', async () => {
    const { page } = browser;
    await page.goto(await loginLink(daemon));
    await page.goto(`${daemon.baseUrl}/#/servers/fixture`);
    const notice = page.locator('.notice', { hasText: 'Could not load' });
    await notice.waitFor();
    const lines = (await notice.locator('.notice-body p').allInnerTexts()).map((t) => t.trim());
    expect(lines).toEqual([
      'Server "fixture" needs the secret env "API_TOKEN", which is not set',
      'The tools below are the ones seen before, with your choices.',
    ]);
  });
});
