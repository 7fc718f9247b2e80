import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { cofferBin, repoRoot, type RunningDaemon } from '../../support/running-daemon.js';
export { fixtureServer as FIXTURE } from '../../support/running-daemon.js';

/** Debian's chromium (apt-get install chromium); never a browser Playwright downloads. */
export const CHROMIUM = process.env.COFFER_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(repoRoot, 'docs', 'screenshots');

export interface Browser {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/** A headless Chromium with a fresh profile, so no cookie survives from another run. */
export async function launchBrowser(viewport = { width: 1200, height: 780 }): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'coffer-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** `coffer ui --no-open`, as a user would run it: prints the one-time login link. */
export function loginLink(daemon: RunningDaemon): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [cofferBin, 'ui', '--no-open'],
      // Only ends a run that hangs: a CLI start on a busy machine takes a while.
      { env: daemon.env, timeout: 60_000 },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`coffer ui failed: ${stderr}`));
        else resolve(stdout.trim());
      },
    );
  });
}

export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<Buffer> {
  // docs/screenshots changes only when asked (`COFFER_SCREENSHOTS=1 npm run test:e2e`):
  // times and latencies differ on every run, and the tree must stay clean after `npm test`.
  const save = process.env['COFFER_SCREENSHOTS'] === '1';
  // Confirmations fade after a few seconds; the picture is of the page, not of them. Only a
  // picture that is kept waits for that (about 5 s a picture, 13 pictures).
  if (save)
    await page
      .locator('.toast')
      .last()
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => undefined);
  // A full-page picture taken while scrolled down draws the sticky top bar mid-page.
  if (options.fullPage === true) await page.evaluate('window.scrollTo(0, 0)');
  return page.screenshot({
    ...(save ? { path: join(SCREENSHOTS, `${name}.png`) } : {}),
    ...options,
  });
}
