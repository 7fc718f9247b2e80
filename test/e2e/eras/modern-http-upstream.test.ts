import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../support/eventually.js';
import { startDaemon, type RunningDaemon } from '../../support/running-daemon.js';
import { startModernHttp } from './modern-http-fixture.js';
import { expectEchoThroughShim } from './shim-echo.js';

/**
 * A remote server built with the official SDK v2 that speaks only MCP 2026-07-28 over
 * Streamable HTTP (`createMcpHandler(factory, { legacy: 'reject' })`), registered in
 * Coffer by URL: Coffer asks it server/discover first (a remote upstream of unknown era is
 * probed the 2026-07-28 way), finds it modern, and every request carries the envelope and
 * the headers the server checks (-32020).
 */
describe('a 2026-07-28-only remote upstream (SDK v2 over Streamable HTTP, legacy rejected)', () => {
  let daemon: RunningDaemon;
  let upstream: Awaited<ReturnType<typeof startModernHttp>>;

  beforeAll(async () => {
    upstream = await startModernHttp();
    daemon = await startDaemon();
    const added = await daemon.api('POST', '/servers', {
      name: 'remote',
      transport: 'http',
      url: upstream.url,
    });
    expect(added.status).toBe(201);
  });

  afterAll(async () => {
    await daemon?.stop();
    await upstream?.close();
  });

  it('lists and calls its tools for a 2025 client on /mcp', async () => {
    const client = await daemon.client();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['remote__echo', 'remote__add_tool']),
    );
    const result = await client.callTool({ name: 'remote__echo', arguments: { text: 'hi' } });
    expect(result).toEqual({ content: [{ type: 'text', text: 'echo: hi' }] });
  });

  it('sends the Mcp-Param headers a tool declares, plain and base64-encoded', async () => {
    const client = await daemon.client();
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('remote__in_region');
    for (const region of ['eu-west-1', 'Zürich ⛰']) {
      const result = await client.callTool({ name: 'remote__in_region', arguments: { region } });
      expect(result).toEqual({ content: [{ type: 'text', text: `region: ${region}` }] });
    }
  });

  it('shows 2026-07-28 as the protocol revision it speaks', async () => {
    const client = await daemon.client({ name: 'versions' });
    await client.listTools();
    const shown = await daemon.api('GET', '/servers/remote');
    expect(shown.body.server.status.protocol_version).toBe('2026-07-28');
  });

  it("invalidates every session's tool list when the upstream's list changes", async () => {
    const watcher = await daemon.client({ name: 'watcher' });
    const changer = await daemon.client({ name: 'changer' });
    await watcher.listTools();
    let changes = 0;
    watcher.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changes += 1));
    await changer.callTool({ name: 'remote__add_tool', arguments: {} });
    await eventually(() => expect(changes).toBeGreaterThan(0));
    const { tools } = await watcher.listTools();
    expect(tools.map((tool) => tool.name)).toContain('remote__extra_1');
  });

  it('lists and calls through the shim for a 2025 stdio client', async () => {
    await expectEchoThroughShim(daemon.env, 'remote');
  });

  it('cancels a call by closing its POST, and the shared connection stays up', async () => {
    const client = await daemon.client({ name: 'cancelling' });
    const abort = new AbortController();
    const call = client.callTool({ name: 'remote__wait', arguments: {} }, undefined, {
      signal: abort.signal,
    });
    const settled = call.then(
      () => 'answered',
      () => 'rejected',
    );
    await eventually(() => expect(upstream.log()).toContain('wait started'));
    abort.abort();
    expect(await settled).toBe('rejected');
    await eventually(() => expect(upstream.log()).toContain('wait cancelled'));
    const after = await client.callTool({ name: 'remote__echo', arguments: { text: 'on' } });
    expect(after.content).toEqual([{ type: 'text', text: 'echo: on' }]);
  });

  it('shares one connection across sessions: one discover probe, one listen stream', () => {
    const posts = (method: string) =>
      upstream
        .log()
        .split('\n')
        .filter((line) => line === `POST ${method}`).length;
    expect(posts('tools/list')).toBeGreaterThanOrEqual(3);
    // Probed with server/discover first: no 2025 initialize (no Mcp-Method) was ever sent.
    expect(posts('-')).toBe(0);
    expect(posts('server/discover')).toBe(1);
    expect(posts('subscriptions/listen')).toBe(1);
  });

  it('was never sent a request without the headers its body names', () => {
    expect(upstream.log()).not.toMatch(/Rejected inbound request/);
  });
});
