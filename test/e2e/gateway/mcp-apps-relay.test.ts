import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  APP_HTML,
  APP_MIME_TYPE,
  APP_UI_META,
  UI_EXTENSION,
} from '../../fixtures/fake-mcp-server/apps-catalog.js';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../../support/running-daemon.js';

const loose = z.looseObject({});
const APP = 'ui://kit/dashboard/index.html';

type Json = Record<string, unknown>;

/**
 * The edges of MCP Apps behind /mcp, with the fixture's apps scenario (apps-catalog.ts):
 * only app links and resource URIs change, the app's `_meta.ui` (csp, permissions) and every
 * other `_meta` key are relayed as the upstream wrote them, and `ui://` URIs stay `ui://`
 * in templates, reads, result links and resources/updated.
 */
describe('MCP Apps through /mcp, edge by edge', () => {
  let daemon: RunningDaemon;
  let client: Client;
  const updated: string[] = [];

  beforeAll(async () => {
    daemon = await startDaemon();
    // Two app servers, alike but for one tool only kit2 has.
    for (const [name, extra] of [
      ['kit', []],
      ['kit2', ['--tools', 'kit2_only']],
    ] as const) {
      const response = await daemon.api('POST', '/servers', {
        name,
        transport: 'stdio',
        command: process.execPath,
        args: [fixture, '--scenario', 'apps', ...extra],
      });
      if (response.status !== 201) throw new Error(`register: ${JSON.stringify(response.body)}`);
    }
    client = await daemon.client();
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (note) => {
      updated.push(note.params.uri);
    });
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  async function list(method: string, field: string): Promise<Json[]> {
    return (await client.request({ method }, loose))[field] as Json[];
  }

  it("passes the host's declaration of the extension to the app server, per session", async () => {
    const ui = { mimeTypes: [APP_MIME_TYPE] };
    const host = await daemon.client({ capabilities: { extensions: { [UI_EXTENSION]: ui } } });
    const seen = await host.callTool({ name: 'kit__ui_support', arguments: {} });
    expect(seen.content).toEqual([{ type: 'text', text: JSON.stringify(ui) }]);
    const plain = await client.callTool({ name: 'kit__ui_support', arguments: {} });
    expect(plain.content).toEqual([{ type: 'text', text: 'null' }]);
  });

  it('rewrites only the app links of a tool, never another _meta key', async () => {
    const tools = await list('tools/list', 'tools');
    const tool = tools.find((entry) => entry['name'] === 'kit__show_dashboard');
    expect(tool?.['_meta']).toEqual({
      ui: { resourceUri: APP, visibility: ['model', 'app'] },
      'ui/resourceUri': APP,
      'io.example/source': 'ui://dashboard/index.html',
    });
  });

  it('lists the app with its mimeType and _meta verbatim, and the bare ui:// URI', async () => {
    const resources = await list('resources/list', 'resources');
    expect(resources.find((entry) => entry['uri'] === APP)).toEqual({
      uri: APP,
      name: 'dashboard',
      mimeType: APP_MIME_TYPE,
      _meta: { ui: APP_UI_META, 'io.example/source': 'ui://dashboard/index.html' },
    });
    expect(resources.map((entry) => entry['uri'])).toContain('ui://kit/');
    const templates = await list('resources/templates/list', 'resourceTemplates');
    expect(templates.map((entry) => entry['uriTemplate'])).toContain('ui://kit/widgets/{id}');
  });

  it('reads the app with its own _meta.ui (csp, permissions) untouched', async () => {
    const read = await client.request({ method: 'resources/read', params: { uri: APP } }, loose);
    expect(read['contents']).toEqual([
      { uri: APP, mimeType: APP_MIME_TYPE, text: APP_HTML, _meta: { ui: APP_UI_META } },
    ]);
    const bare = await client.readResource({ uri: 'ui://kit/' });
    expect(bare.contents[0]?.uri).toBe('ui://kit/');
    const widget = await client.readResource({ uri: 'ui://kit2/widgets/7' });
    expect(widget.contents[0]).toMatchObject({
      uri: 'ui://kit2/widgets/7',
      text: '<p>widget 7</p>',
    });
  });

  it('exposes a ui:// link in a tool result the same way', async () => {
    const result = await client.callTool({ name: 'kit__show_dashboard', arguments: {} });
    expect(result.content).toEqual([
      { type: 'resource_link', uri: APP, name: 'dashboard', mimeType: APP_MIME_TYPE },
    ]);
  });

  it('relays resources/updated of an app under its exposed URI', async () => {
    await client.subscribeResource({ uri: APP });
    await client.callTool({ name: 'kit__touch', arguments: { uri: 'ui://dashboard/index.html' } });
    await expect.poll(() => updated).toContain(APP);
  });

  it('refuses an app call by a tool name two app servers share, naming none', async () => {
    const error = await client
      .callTool({ name: 'show_dashboard', arguments: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toContain('Unknown tool "show_dashboard"');
  });

  it('routes an app call by a name one app server has, and refuses it once disabled', async () => {
    const served = await client.callTool({ name: 'kit2_only', arguments: { from: 'the app' } });
    expect(JSON.stringify(served.content)).toContain('the app');
    const toggled = await daemon.api('POST', '/servers/kit2/capabilities', {
      type: 'tool',
      keys: ['kit2_only'],
      enabled: false,
    });
    expect(toggled.status).toBe(200);
    const error = await client
      .callTool({ name: 'kit2_only', arguments: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).data).toMatchObject({ coffer_code: 'TOOL_DISABLED' });
  });
});
