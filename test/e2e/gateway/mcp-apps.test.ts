import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import { ShimClient, type Message } from '../../integration/shim/support/shim-client.js';
import { repoRoot, startDaemon, type RunningDaemon } from '../../support/running-daemon.js';

const appPackage = join(repoRoot, 'node_modules/@modelcontextprotocol/server-basic-vanillajs');
const appHtml = readFileSync(join(appPackage, 'dist/mcp-app.html'), 'utf8');
const loose = z.looseObject({});

/** What the app server itself says (ui://get-time/mcp-app.html), and what /mcp says. */
const ORIGINAL_URI = 'ui://get-time/mcp-app.html';
const EXPOSED_URI = 'ui://apps/get-time/mcp-app.html';
const APP_MIME_TYPE = 'text/html;profile=mcp-app';

interface ToolEntry {
  name: string;
  _meta?: Record<string, unknown>;
}

/**
 * MCP Apps (extension io.modelcontextprotocol/ui) behind Coffer, with a real app server
 * nobody here wrote (server-basic-vanillajs over stdio): hosts render only `ui://`
 * resources named by the tool, so /mcp and the shim expose them as `ui://<server>/<rest>`
 * everywhere a client meets them, and the passthrough endpoint keeps the originals.
 */
describe('an MCP App behind Coffer', () => {
  let daemon: RunningDaemon;
  let client: Client;

  beforeAll(async () => {
    daemon = await startDaemon();
    const response = await daemon.api('POST', '/servers', {
      name: 'apps',
      transport: 'stdio',
      command: process.execPath,
      args: [join(appPackage, 'dist/index.js'), '--stdio'],
    });
    if (response.status !== 201) throw new Error(`register: ${JSON.stringify(response.body)}`);
    client = await daemon.client();
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('names the app in the tool under ui://<server>/..., in both _meta keys', async () => {
    const { tools } = (await client.request({ method: 'tools/list' }, loose)) as unknown as {
      tools: ToolEntry[];
    };
    const tool = tools.find((entry) => entry.name === 'apps__get-time');
    expect(tool?._meta).toEqual({
      ui: { resourceUri: EXPOSED_URI },
      'ui/resourceUri': EXPOSED_URI,
    });
  });

  it('lists the app resource under the same URI, with its mimeType', async () => {
    const { resources } = await client.listResources();
    const app = resources.find((resource) => resource.uri === EXPOSED_URI);
    expect(app).toMatchObject({ uri: EXPOSED_URI, mimeType: APP_MIME_TYPE });
    expect(resources.some((resource) => resource.uri.includes(ORIGINAL_URI))).toBe(false);
  });

  it('reads the app by the URI the tool names, and gets its HTML verbatim', async () => {
    const read = await client.request(
      { method: 'resources/read', params: { uri: EXPOSED_URI } },
      loose,
    );
    expect(read['contents']).toEqual([
      { uri: EXPOSED_URI, mimeType: APP_MIME_TYPE, text: appHtml },
    ]);
  });

  it('calls the app tool, under its exposed name and as the app itself names it', async () => {
    const viaHost = await client.callTool({ name: 'apps__get-time', arguments: {} });
    expect(viaHost.structuredContent).toMatchObject({ time: expect.any(String) });
    // The app's own page calls `get-time` (callServerTool): the host relays that name as is.
    const viaApp = await client.callTool({ name: 'get-time', arguments: {} });
    expect(viaApp.isError).toBeFalsy();
    expect(viaApp.structuredContent).toMatchObject({ time: expect.any(String) });
  });

  it('keeps the original ui:// URIs on the passthrough endpoint', async () => {
    const single = await daemon.client({ server: 'apps' });
    const { tools } = (await single.request({ method: 'tools/list' }, loose)) as unknown as {
      tools: ToolEntry[];
    };
    expect(tools.find((entry) => entry.name === 'get-time')?._meta).toEqual({
      ui: { resourceUri: ORIGINAL_URI },
      'ui/resourceUri': ORIGINAL_URI,
    });
    const { resources } = await single.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(ORIGINAL_URI);
    const read = await single.readResource({ uri: ORIGINAL_URI });
    expect(read.contents[0]?.uri).toBe(ORIGINAL_URI);
  });

  it('exposes the same URIs through the shim', async () => {
    const shim = ShimClient.spawn(daemon.env);
    try {
      await shim.initialize();
      const listed: Message = await shim.request('tools/list');
      const tool = (listed.result.tools as ToolEntry[]).find((t) => t.name === 'apps__get-time');
      expect(tool?._meta?.['ui/resourceUri']).toBe(EXPOSED_URI);
      const read: Message = await shim.request('resources/read', { uri: EXPOSED_URI });
      expect(read.result.contents[0]).toMatchObject({ uri: EXPOSED_URI, mimeType: APP_MIME_TYPE });
    } finally {
      expect(await shim.close()).toEqual({ code: 0, signal: null });
    }
  });
});
