import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { FIXTURE, launchBrowser, loginLink, type Browser } from './browser.js';

/**
 * A daemon that found its database damaged at start and restored it from the snapshot
 * (docs/RECOVERY.md) says so on the Servers page, the page the UI opens on, above the
 * servers it brought back; the Doctor page lists the same finding.
 */
describe('Servers page after a restored database, in Chromium', () => {
  let home: string;
  let daemon: RunningDaemon;
  let browser: Browser;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'coffer-e2e-restored-'));
    const snapshot = {
      coffer_config: 1,
      servers: {
        fx: { transport: 'stdio', command: process.execPath, args: [FIXTURE] },
      },
    };
    writeFileSync(join(home, 'config-snapshot.json'), JSON.stringify(snapshot), { mode: 0o600 });
    writeFileSync(join(home, 'coffer.db'), randomBytes(8192), { mode: 0o600 });
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file' }, home);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    if (home !== undefined) rmSync(home, { recursive: true, force: true });
  });

  it('says the database was damaged, where it was set aside, and shows the servers restored', async () => {
    const { page } = browser;
    await page.goto(await loginLink(daemon));
    const notice = page.locator('.notice', { hasText: "Coffer's database was damaged" });
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(
      /set it aside as .*coffer\.db\.damaged-.*restored 1 server from the configuration snapshot of .*, switches and policies included/,
    );
    await expect(
      page.getByRole('list', { name: 'Servers' }).getByText('fx', { exact: true }).count(),
    ).resolves.toBe(1);
  });
});
