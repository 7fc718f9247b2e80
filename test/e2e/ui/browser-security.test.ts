import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { launchBrowser, loginLink, type Browser } from './browser.js';

/** A page on another local port: same *site* as the daemon (127.0.0.1), another origin. */
function attackerSite(target: string): Promise<{ server: Server; url: string }> {
  const page = `<!doctype html><form id="f" method="POST" enctype="text/plain" action="${target}">
    <input name='{"a":"' value='"}'></form><script>document.getElementById('f').submit()</script>`;
  // `/form` posts at once; any other path is an empty page to run scripts from.
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(req.url === '/form' ? page : '<!doctype html><title>elsewhere</title>');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/` });
    });
  });
}

/** What the page's own script gets for a same-origin fetch with its session cookie. */
function fetchFromPage(page: Page, path: string, init: { method?: string; csrf?: boolean } = {}) {
  return page.evaluate(
    async ({ path, method, csrf }) => {
      const response = await fetch(path, {
        method,
        headers: csrf ? { 'x-coffer-csrf': '1' } : {},
      });
      return { status: response.status, body: await response.text() };
    },
    { path, method: init.method ?? 'GET', csrf: init.csrf ?? false },
  );
}

describe('browser sessions: cookie login, CSRF and cross-site refusal', () => {
  let daemon: RunningDaemon;
  let browser: Browser;
  let attacker: Server | undefined;
  let attackerUrl = '';

  beforeAll(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    expect(
      (
        await daemon.api('POST', '/servers', {
          name: 'target',
          transport: 'stdio',
          command: 'true',
        })
      ).status,
    ).toBe(201);
  });

  afterAll(async () => {
    await browser?.close();
    const site = attacker;
    if (site !== undefined) await new Promise<void>((resolve) => site.close(() => resolve()));
    await daemon?.stop();
  });

  it('without a session, `/` is a page that says how to sign in, and the API answers 401 JSON', async () => {
    const page = await fetch(`${daemon.baseUrl}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('coffer ui');
    const api = await fetch(`${daemon.baseUrl}/api/v1/servers`);
    expect(api.status).toBe(401);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    const bad = await fetch(`${daemon.baseUrl}/login?code=not-a-code`, { redirect: 'manual' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('set-cookie')).toBeNull();
  });

  it('a login sets an HttpOnly cookie the page cannot read, and serves the UI with a strict CSP', async () => {
    const { page } = browser;
    const response = await page.goto(await loginLink(daemon));
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(response?.headers()['x-frame-options']).toBe('DENY');
    // A string, not a function: the test's tsconfig has no DOM types.
    expect(await page.evaluate<string>('document.cookie')).toBe('');
    await page.getByRole('heading', { name: 'Servers' }).waitFor();
  });

  it('the cookie opens the API; a change needs X-Coffer-CSRF', async () => {
    const { page } = browser;
    expect((await fetchFromPage(page, '/api/v1/servers')).status).toBe(200);
    const noHeader = await fetchFromPage(page, '/api/v1/servers/target/disable', {
      method: 'POST',
    });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body).toContain('x-coffer-csrf');
    expect((await daemon.api('GET', '/servers/target')).body.server.enabled).toBe(true);
    const withHeader = await fetchFromPage(page, '/api/v1/servers/target/disable', {
      method: 'POST',
      csrf: true,
    });
    expect(withHeader.status).toBe(200);
    expect((await daemon.api('GET', '/servers/target')).body.server.enabled).toBe(false);
    await daemon.api('POST', '/servers/target/enable');
  });

  it('the cookie opens neither MCP nor more login codes', async () => {
    const { page } = browser;
    expect((await fetchFromPage(page, '/mcp', { method: 'POST', csrf: true })).status).toBe(401);
    const code = await fetchFromPage(page, '/api/v1/ui/login-code', { method: 'POST', csrf: true });
    expect(code.status).toBe(403);
  });

  it('refuses a cross-site form post that carries the session cookie', async () => {
    const site = await attackerSite(`${daemon.baseUrl}/api/v1/servers/target/disable`);
    attacker = site.server;
    attackerUrl = site.url;
    const { page } = browser;
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/v1/servers/target/disable'));
    await page.goto(`${site.url}form`);
    const response = await posted;
    expect(response.status()).toBe(403);
    // Same site (every port of 127.0.0.1 is), so the browser did send the cookie: the
    // Origin and CSRF checks are what refused it.
    expect((await response.request().allHeaders()).cookie).toContain(
      `coffer_session_${daemon.port}=`,
    );
    expect((await daemon.api('GET', '/servers/target')).body.server.enabled).toBe(true);
  });

  it('refuses a cross-origin fetch from another local port, even without CORS preflight', async () => {
    const { page } = browser;
    await page.goto(attackerUrl);
    const answered = page.waitForResponse((r) => r.url().endsWith('/servers/target/disable'));
    const status = await page.evaluate(async (url) => {
      await fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include' });
      return 'sent';
    }, `${daemon.baseUrl}/api/v1/servers/target/disable`);
    expect(status).toBe('sent');
    expect((await answered).status()).toBe(403);
    expect((await daemon.api('GET', '/servers/target')).body.server.enabled).toBe(true);
  });
});
