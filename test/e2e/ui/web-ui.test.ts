import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { FIXTURE, launchBrowser, loginLink, screenshot, type Browser } from './browser.js';
import { toolsOnceListed } from '../../support/listed-tools.js';
import { runCoffer } from '../secrets/run-coffer.js';

/**
 * The web UI as a user drives it, in Debian's Chromium: log in through `coffer ui`, add
 * the fixture server through the form, switch a tool off and check with a real MCP
 * client that agents lost it, test connections, see a broken server's error, and watch
 * an agent's call arrive on the Activity page without reloading. Screenshots of each
 * page go to docs/screenshots for the README.
 */
describe('web UI in Chromium', () => {
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;
  let agent: Client;

  beforeAll(async () => {
    daemon = await startDaemon();
    browser = await launchBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
  });

  const heading = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
  const capability = (key: string) =>
    page
      .locator('.capability')
      .filter({ has: page.locator('code', { hasText: new RegExp(`^${key}$`) }) });

  it('logs in through the one-time link of `coffer ui --no-open`', async () => {
    const link = await loginLink(daemon);
    expect(link).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${daemon.port}/login\\?code=[\\w-]{43}$`),
    );
    await page.goto(link);
    await heading('Servers').waitFor();
    // The code left the address bar; the token never reached the page.
    expect(page.url()).toBe(`${daemon.baseUrl}/`);
    expect(await page.content()).not.toContain(daemon.token);
    const cookies = await browser.context.cookies();
    expect(cookies).toEqual([
      expect.objectContaining({
        name: `coffer_session_${daemon.port}`,
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
      }),
    ]);
    await page.getByText('No servers yet').waitFor();
    await screenshot(page, 'servers-empty');
    // Single use: the same link does not sign anyone else in.
    const again = await fetch(link, { redirect: 'manual' });
    expect(again.status).toBe(401);
  });

  it('adds the fixture through the form, showing the API validation by field', async () => {
    await page.getByRole('link', { name: 'Add server' }).click();
    await heading('Add a server').waitFor();
    await expect.poll(() => page.title()).toBe('Add a server · Coffer');
    await page.getByLabel('Name').fill('fixture');
    await page.getByRole('button', { name: 'Add server' }).click();
    const commandField = page.locator('.field', { has: page.getByLabel('Command') });
    await commandField.getByText('a stdio server needs a command').waitFor();
    await page.getByLabel('Command').fill(process.execPath);
    // The daemon does not run where the user's shell is: relative paths need a folder.
    await page
      .locator('.field', { has: page.getByLabel('Working directory') })
      .getByText(/^Optional: where relative paths in the command and arguments are read from/)
      .waitFor();
    await page.getByLabel('Arguments').fill(`${FIXTURE}\n--scenario\nbasic`);
    await page.getByRole('button', { name: 'Add variable' }).click();
    // A token typed as a plain variable would be kept in the database: the API says where it goes.
    await page.getByLabel('Environment 1 name').fill('GH');
    await page.getByLabel('Environment 1 value').fill(`ghp_${'x'.repeat(36)}`);
    await page.getByRole('button', { name: 'Add server' }).click();
    await page
      .getByText(
        "holds a credential (github-token); a secret does not go into a server's definition",
      )
      .waitFor();
    await page.getByLabel('Environment 1 name').fill('LOG_LEVEL');
    await page.getByLabel('Environment 1 value').fill('debug');
    // Editing a field clears its old error: the user may have fixed it.
    await expect.poll(() => commandField.locator('.field-error').count()).toBe(0);
    await screenshot(page, 'server-form', { fullPage: true });
    await page.getByRole('button', { name: 'Add server' }).click();
    await heading(/^fixture/).waitFor();
    expect(page.url()).toBe(`${daemon.baseUrl}/#/servers/fixture`);
    await expect.poll(() => page.title()).toBe('fixture · Coffer');
    const stored = await daemon.api('GET', '/servers/fixture');
    expect(stored.body.server).toMatchObject({
      command: process.execPath,
      env: { LOG_LEVEL: 'debug' },
    });
  });

  it('shows the tools; a tool switched off is gone for agents and refused', async () => {
    await capability('echo').waitFor();
    await page.getByRole('tab', { name: /Tools/ }).waitFor();
    await capability('structured').locator('summary').click();
    await capability('structured').getByText('"required"').waitFor();
    await capability('structured').locator('summary').click();

    agent = await daemon.client({ name: 'ui-e2e-agent' });
    // A new session starts its own upstream: listed once started (list_changed).
    await toolsOnceListed(agent, ['fixture__echo']);
    const toggle = page.getByRole('switch', { name: 'Enable echo' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await eventually(async () => {
      const { tools } = await agent.listTools();
      expect(tools.map((t) => t.name)).not.toContain('fixture__echo');
    });
    const refused = await agent
      .callTool({ name: 'fixture__echo', arguments: {} })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).data).toMatchObject({ coffer_code: 'TOOL_DISABLED' });
  });

  it('puts a switch back when the daemon could not save it', async () => {
    const toggle = page.getByRole('switch', { name: 'Enable structured' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    // The daemon unreachable for this save, and for the reload after it.
    const unreachable = '**/api/v1/servers/fixture/capabilities';
    await page.route(unreachable, (route) => route.abort('connectionrefused'));
    try {
      await toggle.click();
      await page.getByText('Cannot reach the Coffer daemon').first().waitFor();
      await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    } finally {
      await page.unroute(unreachable);
    }
    const { body } = await daemon.api('GET', '/servers/fixture/capabilities');
    const structured = (body.tools.items as { key: string; enabled: boolean }[]).find(
      (tool) => tool.key === 'structured',
    );
    expect(structured?.enabled).toBe(true);
  });

  it('filters a list and switches all shown at once', async () => {
    const all = await page.locator('.capability').count();
    await page.getByLabel('Filter tools').fill('outputSchema');
    await expect.poll(() => page.locator('.capability').count()).toBeLessThan(all);
    await capability('structured').waitFor();
    await page.getByLabel('Filter tools').fill('no tool is called like this');
    await page.getByText('No tool matches').waitFor();
    await page.getByLabel('Filter tools').fill('');
    // Keyboard: the arrow keys move between tabs (WAI-ARIA tabs).
    await page.getByRole('tab', { name: /Tools/ }).focus();
    await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => page.getByRole('tab', { name: /Prompts/ }).getAttribute('aria-selected'))
      .toBe('true');
    await page.getByRole('button', { name: 'Disable all' }).click();
    await eventually(async () => {
      const { prompts } = await agent.listPrompts();
      expect(prompts.filter((p) => p.name.startsWith('fixture__'))).toEqual([]);
    });
    await page.getByRole('button', { name: 'Enable all' }).click();
    await eventually(async () => {
      expect((await agent.listPrompts()).prompts.length).toBeGreaterThan(0);
    });
    await page.getByRole('tab', { name: /Tools/ }).click();
  });

  it('"Test connection" shows the latency and the counts', async () => {
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/^Connected in \d+ ms$/).waitFor();
    await page
      .getByText(/\d+ tools · \d+ prompts? · \d+ resources?/)
      .first()
      .waitFor();
    // The header counts what the Resources tab counts: the fixture's resource and template.
    await page
      .locator('.page-head')
      .getByText(/· 1 resource · 1 resource template$/)
      .waitFor();
    await page.getByRole('tab', { name: 'Resources 2' }).waitFor();
    // Strings, not functions: the test's tsconfig has no DOM types.
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'server-detail');
  });

  it('shows a broken server and its error', async () => {
    const added = await daemon.api('POST', '/servers', {
      name: 'broken',
      transport: 'stdio',
      command: '/nonexistent/mcp-server',
    });
    expect(added.status).toBe(201);
    await page.goto(`${daemon.baseUrl}/#/servers/broken`);
    await page.getByText('Could not load — test the connection or refresh').first().waitFor();
    // The last error says what to do, not only what went wrong.
    await page
      .locator('.last-error-hint', { hasText: /^What to do: use an absolute path/ })
      .waitFor();
    // An unreachable server is not an empty one.
    expect(await page.getByText(/No tools discovered yet/).count()).toBe(0);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/^Connection failed after \d+ ms$/).waitFor();
    await page.getByRole('link', { name: 'Servers', exact: true }).first().click();
    const row = page.locator('.server-row', { hasText: 'broken' });
    await row.locator('.badge-error').waitFor();
    await row.locator('.last-error').waitFor();
    await row.locator('.last-error-hint', { hasText: /^What to do: / }).waitFor();
    await screenshot(page, 'servers');
  });

  it('says on the servers page which server cannot start, before anything starts it', async () => {
    await page.getByRole('link', { name: 'Servers', exact: true }).first().click();
    const added = await daemon.api('POST', '/servers', {
      name: 'ghost',
      transport: 'stdio',
      command: 'coffer-ui-no-such-command',
    });
    expect(added.status).toBe(201);
    const row = page.locator('.server-row', { hasText: 'ghost' });
    await row
      .locator('.last-error', {
        hasText: 'Cannot start: command not found: coffer-ui-no-such-command',
      })
      .waitFor();
    await row.locator('.last-error-hint', { hasText: /^What to do: install / }).waitFor();
    // The broken server says its own last error, once.
    const broken = page.locator('.server-row', { hasText: 'broken' });
    expect(await broken.locator('.last-error').count()).toBe(1);
    expect((await daemon.api('DELETE', '/servers/ghost')).status).toBe(204);
    await row.waitFor({ state: 'detached' });
  });

  it("says on a server's page that it starts the same server as another one", async () => {
    const twin = { name: 'broken-twin', transport: 'stdio', command: '/nonexistent/mcp-server' };
    expect((await daemon.api('POST', '/servers', twin)).status).toBe(201);
    await page.goto(`${daemon.baseUrl}/#/servers/broken-twin`);
    const notice = page.locator('.notice', { hasText: 'Served twice' });
    await notice.getByText(/starts the same server as "broken"/).waitFor();
    await notice.getByText('What to do: keep one: coffer mcp remove broken-twin').waitFor();
    expect((await daemon.api('DELETE', '/servers/broken-twin')).status).toBe(204);
    // Another server's page starts afresh: it used to keep "broken-twin was removed".
    await page.goto(`${daemon.baseUrl}/#/servers/broken`);
    await page.getByText('Could not load — test the connection or refresh').first().waitFor();
    expect(await page.getByText('Served twice').count()).toBe(0);
    await page.getByRole('link', { name: 'Servers', exact: true }).first().click();
  });

  it('updates the servers page live when the CLI changes something', async () => {
    const toggle = page.getByRole('switch', { name: 'Enable broken' });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await daemon.api('POST', '/servers/broken/disable');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await page.locator('.server-row', { hasText: 'broken' }).getByText('Disabled').waitFor();
  });

  it('shows a call made by an MCP client on the Activity page, live', async () => {
    await page.getByRole('link', { name: 'Activity' }).click();
    await heading('Activity').waitFor();
    await page.locator('.live-live').waitFor();
    const result = await agent.callTool({ name: 'fixture__structured', arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5, inputs: [2, 3] });
    const row = page
      .locator('tr', { hasText: 'fixture__structured' })
      .or(page.locator('tr', { has: page.locator('code', { hasText: /^structured$/ }) }));
    await row.first().waitFor();
    await expect.poll(() => row.first().textContent()).toContain('ui-e2e-agent');
    await screenshot(page, 'activity');
    await page.getByLabel('Kind').selectOption('admin');
    await page.locator('tr', { hasText: 'capability.disable' }).first().waitFor();
    // A change made in the CLI names it, as a change made here names the browser.
    const refreshed = await runCoffer(daemon.env, ['mcp', 'refresh', 'fixture']);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    const byCli = page.locator('tr', { hasText: 'server.refresh' }).first();
    await byCli.waitFor();
    expect(await byCli.textContent()).toContain('coffer CLI');
  });

  it("keeps the Activity page's filters in its address, through a reload", async () => {
    await page.goto(`${daemon.baseUrl}/#/activity?server=fixture&outcome=ok`);
    await heading('Activity').waitFor();
    // The page was open already: the new address reaches it as a hashchange.
    await expect.poll(() => page.getByLabel('Outcome').inputValue()).toBe('ok');
    await page.getByLabel('Kind').selectOption('calls');
    await page.getByLabel('Search').pressSequentially('structured');
    // Typing kept its focus: the address changing under it is no new page.
    expect(await page.evaluate<string>('document.activeElement?.getAttribute("type") ?? ""')).toBe(
      'search',
    );
    await expect.poll(() => page.url()).toContain('q=structured');
    expect(page.url()).toContain('kind=calls');
    await page.reload();
    await heading('Activity').waitFor();
    expect(await page.getByLabel('Server').inputValue()).toBe('fixture');
    expect(await page.getByLabel('Outcome').inputValue()).toBe('ok');
    expect(await page.getByLabel('Kind').inputValue()).toBe('calls');
    expect(await page.getByLabel('Search').inputValue()).toBe('structured');
    await page.locator('tr', { hasText: 'structured' }).first().waitFor();
    // Another server keeps the other filters; a link away is followed, not written over.
    await page.getByLabel('Server').selectOption('');
    await expect.poll(() => page.url()).toMatch(/#\/activity\?outcome=ok&kind=calls&q=structured$/);
    await page.goto(`${daemon.baseUrl}/#/servers/fixture`);
    await heading(/^fixture/).waitFor();
    expect(page.url()).toMatch(/#\/servers\/fixture$/);
  });

  it('edits a server: a secret goes to the keychain and the upstream, never back to the page', async () => {
    const secret = 'sk-ui-e2e-not-for-pages';
    await page.goto(`${daemon.baseUrl}/#/servers/fixture/edit`);
    await heading('Edit fixture').waitFor();
    await page.getByRole('button', { name: 'Add secret' }).click();
    await page.getByLabel('Secrets 1 name').fill('API_TOKEN');
    await page.getByLabel('Secrets 1 value').fill(secret);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await heading(/^fixture/).waitFor();
    const { body } = await daemon.api('GET', '/secrets?server=fixture');
    expect(body.secrets).toContainEqual(
      expect.objectContaining({ name: 'API_TOKEN', kind: 'env', stored: true, referenced: true }),
    );
    await eventually(async () => {
      const result = await agent.callTool({
        name: 'fixture__env',
        arguments: { name: 'API_TOKEN' },
      });
      // The upstream has it; Coffer redacts it from the answer (issue 20.3).
      expect(result.content).toEqual([
        { type: 'text', text: '[redacted: secret fixture/env/API_TOKEN]' },
      ]);
    });
    await page.goto(`${daemon.baseUrl}/#/servers/fixture/edit`);
    await expect.poll(() => page.getByLabel('Secrets 1 name').inputValue()).toBe('API_TOKEN');
    expect(await page.getByLabel('Secrets 1 value').inputValue()).toBe('');
    expect(await page.content()).not.toContain(secret);
    // The Activity page marks the call whose answer the secret guard redacted.
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.getByLabel('Kind').selectOption('calls');
    await page.locator('.guard-badge[data-guard="redacted"]').first().waitFor();
    expect(await page.locator('.guard-badge').first().textContent()).toBe('Secret redacted');
    expect(await page.content()).not.toContain(secret);
  });

  it('shares a server from its edit form, the trade-off said beside the switch', async () => {
    await page.goto(`${daemon.baseUrl}/#/servers/fixture/edit`);
    await heading('Edit fixture').waitFor();
    const shared = page.getByRole('checkbox', { name: 'Shared by all agents' });
    expect(await shared.isChecked()).toBe(false);
    expect(await page.locator('#shared-hint').textContent()).toContain(
      'cannot ask agents for sampling, elicitation or roots',
    );
    await shared.check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await heading(/^fixture/).waitFor();
    await page.locator('.lede .tag', { hasText: 'Shared by all agents' }).waitFor();
    const stored = await daemon.api('GET', '/servers/fixture');
    expect(stored.body.server).toMatchObject({ shared: true });
  });

  it('keeps arguments it cannot show one per line exactly as they were when an edit saves', async () => {
    const args = ['--input-type=module', '-e', 'const a = 1;\nconsole.log(a);', '', '  padded  '];
    const added = await daemon.api('POST', '/servers', {
      name: 'inline',
      transport: 'stdio',
      command: process.execPath,
      args,
    });
    expect(added.status).toBe(201);
    await page.goto(`${daemon.baseUrl}/#/servers/inline/edit`);
    await heading('Edit inline').waitFor();
    const box = page.getByLabel('Arguments');
    expect(await box.getAttribute('readonly')).not.toBeNull();
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Environment 1 name').fill('LOG_LEVEL');
    await page.getByLabel('Environment 1 value').fill('debug');
    // A value without a name would be lost on the way: the form says so instead.
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Environment 2 value').fill('orphan');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Row 2 has a value but no name').waitFor();
    await page.getByRole('button', { name: 'Remove row 2' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await heading(/^inline/).waitFor();
    const stored = await daemon.api('GET', '/servers/inline');
    expect(stored.body.server).toMatchObject({ args, env: { LOG_LEVEL: 'debug' } });
  });

  it('stays usable at a narrow width', async () => {
    await page.setViewportSize({ width: 390, height: 780 });
    await page.goto(`${daemon.baseUrl}/#/servers`);
    await page.locator('.server-row', { hasText: 'fixture' }).waitFor();
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'servers-narrow');
  });
});
