import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionTestResult, ServerCapabilities } from '../../../src/domain/ports.js';
import { fixtureServer as FIXTURE } from '../../support/running-daemon.js';
import { startLiveServices, type LiveServices } from './live-services.js';

let live: LiveServices;
const call = (method: string, path: string, body?: unknown) => live.call(method, path, body);

async function json<T>(response: Response, status = 200): Promise<T> {
  expect(response.status).toBe(status);
  return (await response.json()) as T;
}

/** Registers the fixture server under `name`. */
async function addFixture(name: string): Promise<void> {
  const body = { name, transport: 'stdio', command: process.execPath };
  await json(
    await call('POST', '/servers', { ...body, args: [FIXTURE, '--scenario', 'basic'] }),
    201,
  );
}

beforeAll(async () => {
  live = await startLiveServices();
  await addFixture('fake');
  await json(
    await call('POST', '/servers', {
      name: 'down',
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
    }),
    201,
  );
});

afterAll(async () => {
  await live?.close();
});

const keysOf = (capabilities: ServerCapabilities, field: keyof ServerCapabilities) =>
  capabilities[field].items.map((item) => [item.key, item.enabled]);

/**
 * The routes whose answers come from live upstreams (capabilities, refresh, test),
 * through the daemon's real composition: SQLite store, AdminCatalog, the fixture MCP
 * server over stdio, and an address where nothing listens.
 */
describe('capabilities, refresh and test with the real catalog', () => {
  it('GET /servers/:name/capabilities lists live, all enabled by default', async () => {
    const capabilities = await json<ServerCapabilities>(
      await call('GET', '/servers/fake/capabilities'),
    );
    expect(capabilities.tools.status).toBe('ok');
    expect(keysOf(capabilities, 'tools')).toContainEqual(['echo', true]);
    expect(keysOf(capabilities, 'prompts')).toEqual([['greeting', true]]);
    expect(keysOf(capabilities, 'resources')).toEqual([['fixture://static/hello.txt', true]]);
    expect(keysOf(capabilities, 'resource_templates')).toEqual([['fixture://items/{id}', true]]);
    const echo = capabilities.tools.items.find((item) => item.key === 'echo');
    expect(echo?.definition).toMatchObject({ name: 'echo', inputSchema: { type: 'object' } });
  });

  it('a toggle shows in the next listing and in the server status counts', async () => {
    await json(
      await call('POST', '/servers/fake/capabilities', {
        type: 'tool',
        keys: ['echo'],
        enabled: false,
      }),
    );
    const capabilities = await json<ServerCapabilities>(
      await call('GET', '/servers/fake/capabilities'),
    );
    expect(keysOf(capabilities, 'tools')).toContainEqual(['echo', false]);
    const { server } = await json<{ server: { status: { counts: unknown } } }>(
      await call('GET', '/servers/fake'),
    );
    expect(server.status.counts).toMatchObject({ prompts: 1, resources: 1 });
  });

  it('POST /servers/:name/refresh lists again and keeps the choices', async () => {
    const capabilities = await json<ServerCapabilities>(
      await call('POST', '/servers/fake/refresh'),
    );
    expect(capabilities.tools.status).toBe('ok');
    expect(keysOf(capabilities, 'tools')).toContainEqual(['echo', false]);
  });

  it('POST /servers/:name/test connects afresh', async () => {
    const result = await json<ConnectionTestResult>(await call('POST', '/servers/fake/test'));
    expect(result).toMatchObject({ ok: true, counts: { prompts: 1, resources: 1 } });
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('a test that lists records the counts, as a session list does', async () => {
    await addFixture('fresh');
    const status = async () =>
      (await json<{ server: { status: { counts: unknown } } }>(await call('GET', '/servers/fresh')))
        .server.status;
    expect((await status()).counts).toBeNull();
    const result = await json<ConnectionTestResult>(await call('POST', '/servers/fresh/test'));
    expect(result.ok).toBe(true);
    expect((await status()).counts).toEqual(result.counts);
  });

  it('an unreachable server says "could not load", never an empty list', async () => {
    const capabilities = await json<ServerCapabilities>(
      await call('GET', '/servers/down/capabilities'),
    );
    for (const field of ['tools', 'prompts', 'resources', 'resource_templates'] as const) {
      expect(capabilities[field]).toMatchObject({
        status: 'could-not-load',
        error: { code: 'UPSTREAM_UNAVAILABLE' },
      });
    }
    const result = await json<ConnectionTestResult>(await call('POST', '/servers/down/test'));
    expect(result).toMatchObject({ ok: false, error: { code: 'UPSTREAM_UNAVAILABLE' } });
  });
});
