import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { runCoffer } from '../secrets/run-coffer.js';
import { launchBrowser, loginLink, type Browser } from './browser.js';

/**
 * The Edit form of a server open in Chromium while `coffer mcp edit` changes the same
 * server. Saving the form used to send its whole env back and drop the CLI's variable
 * without a word; now a form nobody typed in follows the change, and one with edits says
 * the server changed and saves nothing until the user loads the current definition.
 */
describe('the edit form of a server changed by the CLI meanwhile', () => {
  let daemon: RunningDaemon;
  let browser: Browser;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'fixture');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  const envOf = async (): Promise<Record<string, string>> => {
    const { body } = await daemon.api('GET', '/servers/fixture');
    return (body as { server: { env: Record<string, string> } }).server.env;
  };
  const cliEdit = async (...args: string[]) => {
    const run = await runCoffer(daemon.env, ['mcp', 'edit', 'fixture', ...args]);
    expect(run.code, run.stderr).toBe(0);
  };

  it('follows the change while nothing was typed', async () => {
    const { page } = browser;
    await page.goto(await loginLink(daemon));
    await page.goto(`${daemon.baseUrl}/#/servers/fixture/edit`);
    await page.getByRole('heading', { name: 'Edit fixture' }).waitFor();
    await page.locator('.live-live').waitFor();
    await cliEdit('--env', 'FOO=bar');
    await expect.poll(() => page.getByLabel('Environment 1 name').inputValue()).toBe('FOO');
    expect(await page.getByText('fixture was changed elsewhere').count()).toBe(0);
  });

  it('says so over typed edits, and saving does not undo the other change', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Environment 2 name').fill('X');
    await page.getByLabel('Environment 2 value').fill('1');
    await cliEdit('--env', 'BAR=baz');
    const notice = page.locator('.notice', { hasText: 'fixture was changed elsewhere' });
    await notice.waitFor();
    // What was typed stays on the page to be seen; saving sends nothing.
    expect(await page.getByLabel('Environment 2 name').inputValue()).toBe('X');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await notice.waitFor();
    expect(await page.getByRole('heading', { name: 'Edit fixture' }).count()).toBe(1);
    expect(await envOf()).toEqual({ FOO: 'bar', BAR: 'baz' });

    await notice.getByRole('button', { name: 'Load the current definition' }).click();
    await notice.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Environment 2 name').inputValue()).toBe('BAR');
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Environment 3 name').fill('X');
    await page.getByLabel('Environment 3 value').fill('1');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // Saved: the form leaves for the server's page.
    await page.waitForURL(`${daemon.baseUrl}/#/servers/fixture`);
    expect(await envOf()).toEqual({ FOO: 'bar', BAR: 'baz', X: '1' });
  });
});
