import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cofferPaths } from '../../../src/config/home.js';
import { ensurePrivateDir } from '../../../src/config/private-files.js';
import { readSettings } from '../../../src/config/settings.js';
import { createServices } from '../../../src/daemon/services.js';
import type { DaemonServices } from '../../../src/daemon/daemon-services.js';
import type { ConnectionTestResult, ServerCapabilities } from '../../../src/domain/ports.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { fixtureServer as FIXTURE } from '../../support/running-daemon.js';

let home: string;
let services: DaemonServices;

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  return await services.api.fetch(new Request(`http://127.0.0.1/api/v1${path}`, init));
}

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
  if (!existsSync(FIXTURE)) throw new Error(`${FIXTURE} is missing: run \`npm run build\` first`);
  home = mkdtempSync(join(tmpdir(), 'coffer-api-live-'));
  const paths = cofferPaths(home);
  ensurePrivateDir(paths.logsDir);
  services = await createServices({
    paths,
    logger: silentLogger(),
    port: 0,
    token: 'test',
    settings: readSettings(),
    startedAt: new Date(),
  });
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
  await services.close();
  rmSync(home, { recursive: true, force: true });
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
