import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../../src/domain/ports.js';
import { startSession, type Harness } from './session-harness.js';
import type { Script } from './fake-upstream.js';

const APP = 'ui://clock/app.html';

/** An MCP App server: a tool that opens the app, an app-only tool, the app resource. */
const appServer: Script = {
  'tools/list': () => ({
    tools: [
      { name: 'show', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: APP } } },
      { name: 'tick', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] } } },
    ],
  }),
  'resources/list': () => ({ resources: [{ uri: APP, name: 'clock' }] }),
  'resources/read': (params) => ({
    contents: [{ uri: params?.['uri'], text: '<p>clock</p>', _meta: { ui: { csp: {} } } }],
  }),
  'tools/call': (params) => ({
    content: [{ type: 'text', text: `apps ${String(params?.['name'])}` }],
  }),
};

/** An ordinary server with a tool of the same name as the app-only one. */
const plainServer: Script = {
  'tools/list': () => ({ tools: [{ name: 'tick', inputSchema: { type: 'object' } }] }),
  'tools/call': () => ({ content: [{ type: 'text', text: 'plain tick' }] }),
};

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.session.close();
  harness = undefined;
});

const result = (answer: JsonObject) => answer['result'] as JsonObject;

describe('a session serving an MCP App', () => {
  it('reads ui://<server>/<rest> from that server as ui://<rest>, and exposes the answer again', async () => {
    harness = await startSession({ apps: appServer, plain: plainServer });
    await harness.initialize();
    const read = await harness.client.request(2, 'resources/read', {
      uri: 'ui://apps/clock/app.html',
    });
    expect(result(read)['contents']).toEqual([
      { uri: 'ui://apps/clock/app.html', text: '<p>clock</p>', _meta: { ui: { csp: {} } } },
    ]);
    const [sent] = harness.upstreams.latest('apps').calledWith('resources/read');
    expect(sent?.params).toMatchObject({ uri: APP });
  });

  it('routes an app-only tool called by its upstream name to the app server, not to another', async () => {
    harness = await startSession({ apps: appServer, plain: plainServer });
    await harness.initialize();
    await harness.client.request(2, 'tools/list');
    const call = await harness.client.request(3, 'tools/call', { name: 'tick', arguments: {} });
    expect(result(call)['content']).toEqual([{ type: 'text', text: 'apps tick' }]);
    expect(harness.upstreams.latest('plain').calledWith('tools/call')).toHaveLength(0);
  });

  it('routes an app call even before the client listed tools', async () => {
    harness = await startSession({ apps: appServer, plain: plainServer });
    await harness.initialize();
    const call = await harness.client.request(2, 'tools/call', { name: 'show', arguments: {} });
    expect(result(call)['content']).toEqual([{ type: 'text', text: 'apps show' }]);
  });

  it('refuses an app call to a tool the user disabled', async () => {
    harness = await startSession({ apps: appServer });
    harness.preferences.disable('apps', 'tool', 'tick');
    await harness.initialize();
    const call = await harness.client.request(2, 'tools/call', { name: 'tick', arguments: {} });
    expect(call['error']).toMatchObject({ data: { coffer_code: 'TOOL_DISABLED' } });
    expect(harness.upstreams.latest('apps').calledWith('tools/call')).toHaveLength(0);
  });

  it('relays resources/updated of an app under its exposed URI', async () => {
    harness = await startSession({ apps: appServer });
    await harness.initialize();
    await harness.client.request(2, 'tools/call', { name: 'apps__show', arguments: {} });
    harness.upstreams
      .latest('apps')
      .context.peer.notify('notifications/resources/updated', { uri: APP });
    const note = await harness.client.next(
      (sent) => sent.message['method'] === 'notifications/resources/updated',
    );
    expect(note.message['params']).toEqual({ uri: 'ui://apps/clock/app.html' });
  });

  it('keeps ui:// URIs and upstream names as they are on the single-server endpoint', async () => {
    harness = await startSession({ apps: appServer }, { kind: 'single', server: 'apps' });
    await harness.initialize();
    const list = await harness.client.request(2, 'tools/list');
    const tools = result(list)['tools'] as JsonObject[];
    expect(tools.find((tool) => tool['name'] === 'show')?.['_meta']).toEqual({
      ui: { resourceUri: APP },
    });
    const read = await harness.client.request(3, 'resources/read', { uri: APP });
    expect((result(read)['contents'] as JsonObject[])[0]?.['uri']).toBe(APP);
  });
});
