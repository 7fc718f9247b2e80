import { describe, expect, it } from 'vitest';
import { exposeAppLinks, opensApp } from '../../../src/gateway/mcp-apps.js';
import { aggregatedNamespace, passthroughNamespace } from '../../../src/gateway/namespace.js';

const APP = 'ui://get-time/mcp-app.html';
const EXPOSED = 'ui://apps/get-time/mcp-app.html';

const expose = (tool: Record<string, unknown>) => exposeAppLinks(tool, 'apps', aggregatedNamespace);

describe('app links of a tool', () => {
  it('exposes _meta.ui.resourceUri and the legacy key, and nothing else', () => {
    const tool = {
      name: 'apps__get-time',
      inputSchema: { type: 'object' },
      _meta: {
        ui: { resourceUri: APP, visibility: ['model', 'app'] },
        'ui/resourceUri': APP,
        'io.example/source': APP,
        progressToken: 7,
      },
    };
    expect(expose(tool)).toEqual({
      ...tool,
      _meta: {
        ui: { resourceUri: EXPOSED, visibility: ['model', 'app'] },
        'ui/resourceUri': EXPOSED,
        'io.example/source': APP,
        progressToken: 7,
      },
    });
    // The upstream's own definition is left as it was: the session caches it.
    expect(tool._meta.ui.resourceUri).toBe(APP);
  });

  it('exposes either key alone', () => {
    expect(expose({ name: 't', _meta: { ui: { resourceUri: APP } } })).toEqual({
      name: 't',
      _meta: { ui: { resourceUri: EXPOSED } },
    });
    expect(expose({ name: 't', _meta: { 'ui/resourceUri': APP } })).toEqual({
      name: 't',
      _meta: { 'ui/resourceUri': EXPOSED },
    });
  });

  it('names a non-ui:// link as the session lists that resource', () => {
    expect(expose({ name: 't', _meta: { ui: { resourceUri: 'https://x/app' } } })).toEqual({
      name: 't',
      _meta: { ui: { resourceUri: 'coffer://apps/https://x/app' } },
    });
  });

  it.each([
    ['no _meta', { name: 't' }],
    ['a null _meta', { name: 't', _meta: null }],
    ['a string _meta', { name: 't', _meta: 'ui://x' }],
    ['an array _meta', { name: 't', _meta: ['ui://x'] }],
    ['a ui that is not an object', { name: 't', _meta: { ui: 'ui://x' } }],
    ['a ui array', { name: 't', _meta: { ui: [{ resourceUri: APP }] } }],
    ['a resourceUri that is not a string', { name: 't', _meta: { ui: { resourceUri: 7 } } }],
    ['a legacy key that is not a string', { name: 't', _meta: { 'ui/resourceUri': {} } }],
  ])('relays a tool with %s unchanged', (_label, tool) => {
    expect(expose(tool)).toBe(tool);
    expect(opensApp(tool)).toBe(false);
  });

  it('keeps every link as it is on the passthrough endpoint', () => {
    const tool = { name: 'get-time', _meta: { ui: { resourceUri: APP }, 'ui/resourceUri': APP } };
    expect(exposeAppLinks(tool, 'apps', passthroughNamespace('apps'))).toBe(tool);
  });

  it('tells a tool that opens an app by either key', () => {
    expect(opensApp({ name: 't', _meta: { ui: { resourceUri: APP } } })).toBe(true);
    expect(opensApp({ name: 't', _meta: { 'ui/resourceUri': APP } })).toBe(true);
    expect(opensApp({ name: 't', _meta: { ui: { visibility: ['app'] } } })).toBe(false);
  });
});
