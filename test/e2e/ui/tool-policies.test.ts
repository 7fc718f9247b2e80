import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFixture, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { runCoffer } from '../secrets/run-coffer.js';
import { launchBrowser, loginLink, screenshot, type Browser } from './browser.js';

interface PolicyRow {
  key: string;
  policy: string | null;
  destructive: boolean;
  effective: string;
  enabled: boolean;
}
interface PolicyView {
  server: string;
  destructive: string;
  tools: PolicyRow[];
}

/**
 * The server page's tool policies (issue 20.2), in Debian's Chromium, against the
 * fixture's destructive scenario: delete_note says destructiveHint, wipe_notes says
 * destructive and read-only. What the page shows and sets is what the REST API and
 * `coffer mcp policy` read back, and it survives a reload.
 */
describe('tool policies on the server page in Chromium', () => {
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    daemon = await startDaemon();
    await addFixture(daemon, 'notes', ['--scenario', 'destructive']);
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(await loginLink(daemon));
    await page.goto(`${daemon.baseUrl}/#/servers/notes`);
    await row('delete_note').waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  const section = () => page.getByRole('region', { name: 'Before a tool runs' });
  const row = (key: string) =>
    section()
      .locator('li')
      .filter({ has: page.locator('code', { hasText: new RegExp(`^${key}$`) }) });
  const shown = async (key: string) => ({
    effective: await row(key).locator('.badge').textContent(),
    why: await row(key).locator('.policy-why').textContent(),
  });
  const choose = (key: string, value: string) =>
    row(key).getByLabel(`Policy of ${key}`).selectOption(value);
  const viaRest = async (): Promise<PolicyView> => {
    const { status, body } = await daemon.api('GET', '/servers/notes/policies');
    expect(status).toBe(200);
    return body as PolicyView;
  };
  const restRow = async (key: string) => (await viaRest()).tools.find((t) => t.key === key);

  it('shows delete_note as ask because destructive, and the others as allowed by default', async () => {
    await expect
      .poll(() => shown('delete_note'))
      .toEqual({
        effective: 'ask',
        why: 'destructive, by its annotations',
      });
    // The section's top under the sticky bar, for the README's picture.
    const box = await section().boundingBox();
    await page.evaluate(`window.scrollBy(0, ${Math.round((box?.y ?? 0) - 80)})`);
    await screenshot(page, 'policies');
    // The tools allowed by default are folded away; destructive and read-only at once
    // (wipe_notes) is one of them: read-only wins, so it is not asked.
    expect(await row('wipe_notes').count()).toBe(1);
    expect(await row('wipe_notes').isVisible()).toBe(false);
    await section()
      .getByText(/^\d+ tools allowed by default$/)
      .click();
    await row('wipe_notes').waitFor();
    expect(await shown('wipe_notes')).toEqual({ effective: 'allow', why: 'default' });
    expect(await section().getByLabel('Tools marked destructive').inputValue()).toBe('ask');
  });

  it('counts a tool switched off apart from the allowed ones: it is refused whatever its policy', async () => {
    const plain = (await viaRest()).tools.filter((t) => t.policy === null && !t.destructive);
    const target = plain.find((t) => t.key !== 'wipe_notes')?.key ?? '';
    expect(target).not.toBe('');
    const allowed = () => section().getByText(/^\d+ tools? allowed by default$/);
    expect(await allowed().textContent()).toBe(`${plain.length} tools allowed by default`);

    const off = await runCoffer(daemon.env, ['mcp', 'disable', 'notes', '--tool', target]);
    expect(off.code, off.stderr).toBe(0);
    // Without a reload: the switch moves it out of the allowed ones.
    await section().getByText('1 tool switched off, refused whatever the policy').click();
    await expect
      .poll(() => shown(target))
      .toEqual({ effective: 'off', why: 'default; switched off, so refused' });
    expect(await allowed().textContent()).toBe(
      `${plain.length - 1} ${plain.length === 2 ? 'tool' : 'tools'} allowed by default`,
    );
    expect(await restRow(target)).toMatchObject({ enabled: false, effective: 'allow' });
    const cli = await runCoffer(daemon.env, ['mcp', 'policy', 'notes']);
    expect(cli.stdout).toContain(`allow ${target} (default; switched off: refused)`);

    const on = await runCoffer(daemon.env, ['mcp', 'enable', 'notes', '--tool', target]);
    expect(on.code, on.stderr).toBe(0);
    await expect
      .poll(() => allowed().textContent())
      .toBe(`${plain.length} tools allowed by default`);
  });

  it('sets delete_note to deny; the REST API and `coffer mcp policy --json` agree, after a reload too', async () => {
    await choose('delete_note', 'deny');
    await expect
      .poll(() => shown('delete_note'))
      .toEqual({ effective: 'deny', why: 'set for this tool' });
    expect(await restRow('delete_note')).toEqual({
      key: 'delete_note',
      policy: 'deny',
      destructive: true,
      effective: 'deny',
      enabled: true,
    });
    const cli = await runCoffer(daemon.env, ['mcp', 'policy', 'notes', '--json']);
    expect(cli.code).toBe(0);
    const view = JSON.parse(cli.stdout) as PolicyView;
    expect(view.tools.find((t) => t.key === 'delete_note')?.effective).toBe('deny');

    await page.reload();
    await expect
      .poll(() => shown('delete_note'))
      .toEqual({ effective: 'deny', why: 'set for this tool' });
    expect(await row('delete_note').getByLabel('Policy of delete_note').inputValue()).toBe('deny');
  });

  it('back to default shows ask again, and nothing stored for the tool', async () => {
    await choose('delete_note', '');
    await expect
      .poll(() => shown('delete_note'))
      .toEqual({
        effective: 'ask',
        why: 'destructive, by its annotations',
      });
    expect(await restRow('delete_note')).toMatchObject({ policy: null, effective: 'ask' });
  });

  it('the destructive default set to allow makes delete_note allowed, read back by the API', async () => {
    await section().getByLabel('Tools marked destructive').selectOption('allow');
    await expect
      .poll(() => shown('delete_note'))
      .toEqual({
        effective: 'allow',
        why: 'destructive, by its annotations',
      });
    const view = await viaRest();
    expect(view.destructive).toBe('allow');
    expect(view.tools.find((t) => t.key === 'delete_note')?.effective).toBe('allow');
    expect(await row('delete_note').getByRole('option', { name: 'default (allow)' }).count()).toBe(
      1,
    );
  });

  it('shows a change made elsewhere without a reload', async () => {
    const cli = await runCoffer(daemon.env, [
      'mcp',
      'policy',
      'notes',
      '--tool',
      'wipe_notes',
      'ask',
    ]);
    expect(cli.code).toBe(0);
    await expect
      .poll(() => shown('wipe_notes'))
      .toEqual({ effective: 'ask', why: 'set for this tool' });
  });

  it('says so when a change cannot be made, and shows nothing changed', async () => {
    await daemon.stop();
    await choose('delete_note', 'deny');
    await page.locator('.toast-error', { hasText: 'Cannot reach the Coffer daemon' }).waitFor();
    expect(await shown('delete_note')).toEqual({
      effective: 'allow',
      why: 'destructive, by its annotations',
    });
  });
});
