import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAuthorizationServer,
  type AuthorizationServerFixture,
} from '../../fixtures/oauth-authorization-server.js';
import {
  startProtectedServer,
  type ProtectedServerFixture,
} from '../../fixtures/oauth-protected-server.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { runCoffer } from '../secrets/run-coffer.js';
import { launchBrowser, loginLink, type Browser } from '../ui/browser.js';

/**
 * The UI's "Sign in" in Chromium: a server that needs OAuth shows the badge and the
 * action; the action opens the authorization page in a new tab, which comes back to the
 * daemon's /oauth/callback; the server's page then shows it signed in.
 */
describe('signing in to an OAuth server from the web UI', () => {
  let authorization: AuthorizationServerFixture;
  let protectedServer: ProtectedServerFixture;
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    authorization = await startAuthorizationServer();
    protectedServer = await startProtectedServer(authorization);
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file' });
    expect(
      (await runCoffer(daemon.env, ['mcp', 'add', 'secure', '--url', protectedServer.url])).code,
    ).toBe(0);
    // A first use finds out the server needs a sign-in.
    await daemon.client({ server: 'secure' }).catch(() => undefined);
    browser = await launchBrowser();
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    await protectedServer?.close();
    await authorization?.close();
  });

  it('shows "Needs sign-in" and a Sign in action that completes the flow', async () => {
    await page.goto(await loginLink(daemon));
    await page.getByRole('link', { name: 'secure' }).first().click();
    await page.getByRole('heading', { level: 1, name: /secure/ }).waitFor();
    await page.getByText('Needs sign-in').first().waitFor();
    const popup = browser.context.waitForEvent('page');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const tab = await popup;
    await tab.getByText('Coffer is signed in to "secure"').waitFor();
    expect(tab.url().startsWith(`${daemon.baseUrl}/oauth/callback?`)).toBe(true);
    // The state changes live (server.state event): the badge and the action go away.
    await expect.poll(() => page.getByText('Needs sign-in').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    expect(authorization.counts.code).toBe(1);
    // The page lists again by itself: the refusal it listed before the sign-in goes, and
    // the server's tools show, without a Refresh.
    // Under load the lists and the state come back in more than one render: wait for both.
    await page.getByText('whoami', { exact: true }).first().waitFor();
    await expect.poll(() => page.getByText('needs you to sign in').count()).toBe(0);
    expect(await page.getByText('Needs sign-in').count()).toBe(0);
  });

  it('shows the sign-in it holds, and signs out: revoked, forgotten, needed again', async () => {
    await page.getByText('Signed in', { exact: true }).waitFor();
    const revocations = authorization.counts.revoke;
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('Signed out of secure').waitFor();
    await expect.poll(() => page.getByText('Signed in', { exact: true }).count()).toBe(0);
    expect(authorization.counts.revoke).toBeGreaterThan(revocations);
    const shown = await daemon.api('GET', '/servers/secure');
    expect(shown.body.server).toMatchObject({ signed_in: false });
    // The page lists again on the change, and that finds the server needs a sign-in.
    await page.getByText('Needs sign-in').first().waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});
