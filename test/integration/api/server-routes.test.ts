import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRACE_HEADER } from '../../../src/api/request-context.js';
import {
  createApiHarness,
  errorOf,
  httpServer,
  stdioServer,
  type ApiHarness,
} from './api-harness.js';

let api: ApiHarness;
beforeEach(async () => {
  api = await createApiHarness();
});
afterEach(async () => {
  await api.close();
});

async function listNames(): Promise<string[]> {
  const body = (await (await api.request('GET', '/servers')).json()) as {
    servers: { name: string }[];
  };
  return body.servers.map((server) => server.name);
}

describe('GET /servers', () => {
  it('starts empty, then lists servers with their status and env/header values', async () => {
    expect(await (await api.request('GET', '/servers')).json()).toEqual({ servers: [] });
    await api.request('POST', '/servers', stdioServer);
    await api.request('POST', '/servers', httpServer);
    const body = (await (await api.request('GET', '/servers')).json()) as {
      servers: Record<string, unknown>[];
    };
    expect(body.servers.map((s) => s['name'])).toEqual(['files', 'remote']);
    expect(body.servers[0]).toMatchObject({
      env: { LOG_LEVEL: 'debug' },
      status: { state: 'idle', last_error: null, counts: null },
    });
    expect(body.servers[1]).toMatchObject({
      headers: { 'X-Team': 'blue' },
      secret_headers: ['Authorization'],
    });
  });
});

describe('POST /servers', () => {
  it('creates a stdio server (201) and tells the sessions', async () => {
    const response = await api.request('POST', '/servers', stdioServer);
    expect(response.status).toBe(201);
    const { server } = (await response.json()) as { server: Record<string, unknown> };
    expect(server).toMatchObject({
      ...stdioServer,
      enabled: true,
      auto_enable_new_capabilities: true,
      shared: false,
      headers: {},
      secret_env: [],
    });
    expect(server['id']).toEqual(expect.any(Number));
    expect(server).not.toHaveProperty('url');
    expect(api.services.notifier.events).toEqual(['servers']);
  });

  it('creates a server shared by all agents when asked (shared: true)', async () => {
    const response = await api.request('POST', '/servers', { ...stdioServer, shared: true });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ server: { name: 'files', shared: true } });
    const listed = (await (await api.request('GET', '/servers')).json()) as {
      servers: Record<string, unknown>[];
    };
    expect(listed.servers[0]).toMatchObject({ shared: true });
  });

  it('creates an http server', async () => {
    const response = await api.request('POST', '/servers', httpServer);
    expect(response.status).toBe(201);
    const { server } = (await response.json()) as { server: Record<string, unknown> };
    expect(server).toMatchObject({ transport: 'http', url: httpServer.url });
    expect(server).not.toHaveProperty('command');
  });

  it('refuses a duplicate name with 409 and writes nothing', async () => {
    await api.request('POST', '/servers', stdioServer);
    const response = await api.request('POST', '/servers', { ...stdioServer, command: 'other' });
    expect(response.status).toBe(409);
    const error = await errorOf(response);
    expect(error.code).toBe('SERVER_EXISTS');
    expect(error.hint).toContain('coffer mcp remove files');
    const { server } = (await (await api.request('GET', '/servers/files')).json()) as {
      server: { command: string };
    };
    expect(server.command).toBe('node');
  });

  it.each([
    ['a bad name', { ...stdioServer, name: 'Files!' }, 'INVALID_SERVER_NAME', /^name: invalid/],
    [
      'a stdio server without command',
      { name: 'x', transport: 'stdio' },
      'INVALID_INPUT',
      /command/,
    ],
    ['both url and command', { ...httpServer, command: 'node' }, 'INVALID_INPUT', /^command: /],
    ['a malformed url', { ...httpServer, url: 'not a url' }, 'INVALID_INPUT', /^url: /],
    ['an unknown field', { ...stdioServer, colour: 'red' }, 'INVALID_INPUT', /colour/],
    ['malformed JSON', '{"name": ', 'INVALID_INPUT', /not valid JSON/],
    ['an empty body', '', 'INVALID_INPUT', /must be JSON/],
    ['a JSON array', [], 'INVALID_INPUT', /expected object/],
  ])('refuses %s with 400', async (_label, body, code, message) => {
    const response = await api.request('POST', '/servers', body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(response.headers.get(TRACE_HEADER)).toBe(error.traceId);
    expect(await listNames()).toEqual([]);
    expect(api.services.notifier.events).toEqual([]);
  });

  it('refuses a body over 1 MiB with 413, declared or streamed', async () => {
    const big = JSON.stringify({ ...stdioServer, args: ['x'.repeat(1024 * 1024)] });
    const declared = await api.app.request('/api/v1/servers', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
    });
    expect(declared.status).toBe(413);
    expect((await errorOf(declared)).code).toBe('PAYLOAD_TOO_LARGE');
    const bytes = new TextEncoder().encode(big);
    const streamed = await api.app.request('/api/v1/servers', {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 65536)
            controller.enqueue(bytes.slice(at, at + 65536));
          controller.close();
        },
      }),
      duplex: 'half',
    });
    expect(streamed.status).toBe(413);
    expect(await listNames()).toEqual([]);
  });
});

describe('GET /servers/:name', () => {
  it('shows one server, or 404 with a hint', async () => {
    await api.request('POST', '/servers', stdioServer);
    const found = await api.request('GET', '/servers/files');
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({
      server: { name: 'files', status: { state: 'idle' } },
    });
    const missing = await api.request('GET', '/servers/nope');
    expect(missing.status).toBe(404);
    const error = await errorOf(missing);
    expect(error).toMatchObject({ code: 'SERVER_NOT_FOUND', message: 'No server named "nope"' });
    expect(error.hint).toContain('coffer mcp list');
  });
});

describe('PATCH /servers/:name', () => {
  beforeEach(async () => {
    await api.request('POST', '/servers', stdioServer);
    api.services.notifier.events.length = 0;
  });

  it('changes the given fields only, closes old connections and tells the sessions', async () => {
    const response = await api.request('PATCH', '/servers/files', { args: ['--fast'] });
    expect(response.status).toBe(200);
    const { server } = (await response.json()) as { server: Record<string, unknown> };
    expect(server).toMatchObject({
      args: ['--fast'],
      command: 'node',
      env: { LOG_LEVEL: 'debug' },
    });
    expect(api.catalog.forgotten).toEqual(['files']);
    expect(api.services.notifier.events).toEqual(['servers']);
  });

  it('moves a server from stdio to http when command and cwd are cleared with null', async () => {
    const response = await api.request('PATCH', '/servers/files', {
      transport: 'http',
      url: 'https://example.test/mcp',
      command: null,
      cwd: null,
    });
    expect(response.status).toBe(200);
    const { server } = (await response.json()) as { server: Record<string, unknown> };
    expect(server).toMatchObject({ transport: 'http', url: 'https://example.test/mcp' });
    expect(server).not.toHaveProperty('command');
    expect(server).not.toHaveProperty('cwd');
  });

  it.each([
    ['a result that breaks the rules', { transport: 'http' }, /^url: a http server needs a url/],
    ['a command left on an http server', { transport: 'http', url: 'http://h/' }, /^command: /],
    ['an empty patch', {}, /changes nothing/],
    ['a rename', { name: 'other' }, /cannot be renamed/],
    ['a wrong type', { enabled: 'yes' }, /^enabled: /],
    ['malformed JSON', '{', /not valid JSON/],
  ])('refuses %s with 400 and changes nothing', async (_label, body, message) => {
    const response = await api.request('PATCH', '/servers/files', body);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(message);
    const { server } = (await (await api.request('GET', '/servers/files')).json()) as {
      server: Record<string, unknown>;
    };
    expect(server).toMatchObject({ transport: 'stdio', command: 'node', enabled: true });
    expect(api.catalog.forgotten).toEqual([]);
    expect(api.services.notifier.events).toEqual([]);
  });

  it('shares and unshares a server: GET shows it, old connections close each time', async () => {
    const shared = await api.request('PATCH', '/servers/files', { shared: true });
    expect(shared.status).toBe(200);
    expect(await shared.json()).toMatchObject({ server: { shared: true, command: 'node' } });
    const { server } = (await (await api.request('GET', '/servers/files')).json()) as {
      server: Record<string, unknown>;
    };
    expect(server).toMatchObject({ shared: true, enabled: true });
    expect(api.catalog.forgotten).toEqual(['files']);
    const unshared = await api.request('PATCH', '/servers/files', { shared: false });
    expect(await unshared.json()).toMatchObject({ server: { shared: false } });
    expect(api.catalog.forgotten).toEqual(['files', 'files']);
    const wrong = await api.request('PATCH', '/servers/files', { shared: 'yes' });
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).message).toMatch(/^shared: /);
  });

  it('answers 404 for an unknown server', async () => {
    const response = await api.request('PATCH', '/servers/nope', { args: [] });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('SERVER_NOT_FOUND');
  });
});

describe('DELETE /servers/:name', () => {
  it('removes (204), forgets and tells; a second delete is 404', async () => {
    await api.request('POST', '/servers', stdioServer);
    const response = await api.request('DELETE', '/servers/files');
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(api.catalog.forgotten).toEqual(['files']);
    expect(api.services.notifier.events).toEqual(['servers', 'servers']);
    expect(await listNames()).toEqual([]);
    const again = await api.request('DELETE', '/servers/files');
    expect(again.status).toBe(404);
    expect((await errorOf(again)).code).toBe('SERVER_NOT_FOUND');
  });
});

describe('POST /servers/:name/enable and /disable', () => {
  it('switches the server; only disabling closes its connections', async () => {
    await api.request('POST', '/servers', stdioServer);
    const disabled = await api.request('POST', '/servers/files/disable');
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toMatchObject({ server: { enabled: false } });
    expect(api.catalog.forgotten).toEqual(['files']);
    const enabled = await api.request('POST', '/servers/files/enable');
    expect(await enabled.json()).toMatchObject({ server: { enabled: true } });
    expect(api.catalog.forgotten).toEqual(['files']);
    expect(api.services.notifier.events).toEqual(['servers', 'servers', 'servers']);
  });

  it('answers 404 for an unknown server', async () => {
    for (const action of ['enable', 'disable']) {
      const response = await api.request('POST', `/servers/nope/${action}`);
      expect(response.status).toBe(404);
      expect((await errorOf(response)).code).toBe('SERVER_NOT_FOUND');
    }
  });
});

describe('errors', () => {
  it('answers an unknown API route with a JSON 404', async () => {
    const response = await api.request('GET', '/nothing/here');
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('NOT_FOUND');
  });

  it('hides the text of an unexpected failure and logs it under the same traceId', async () => {
    await api.request('POST', '/servers', stdioServer);
    api.catalog.failStatus = true;
    const response = await api.request('GET', '/servers');
    expect(response.status).toBe(500);
    const error = await errorOf(response);
    expect(error.code).toBe('INTERNAL');
    expect(error.message).not.toContain('/home/someone');
    const logged = api.logLines.find((line) => line['traceId'] === error.traceId);
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toContain('/home/someone');
  });
});
