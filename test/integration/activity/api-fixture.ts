import { join } from 'node:path';
import type { Hono } from 'hono';
import { createApiApp, type ApiServices } from '../../../src/api/index.js';
import { createSecretStore } from '../../../src/credentials/index.js';
import { ActivityWriter, DEFAULT_ACTIVITY_SETTINGS } from '../../../src/daemon/activity-writer.js';
import type { CapabilityCatalog, SessionNotifier } from '../../../src/domain/ports.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { FakeClock, openTempStore, type TempStore } from '../store/temp-store.js';

const listing = { status: 'ok', items: [] } as const;

/** Answers from fixed values: these tests are about what the API records and hides. */
class QuietCatalog implements CapabilityCatalog {
  readonly forgotten: string[] = [];
  status() {
    return { state: 'idle', last_error: null, counts: null } as const;
  }
  capabilities() {
    const all = { tools: listing, prompts: listing, resources: listing };
    return Promise.resolve({ ...all, resource_templates: listing });
  }
  testConnection(): Promise<never> {
    return Promise.reject(new Error('not in these tests'));
  }
  refresh() {
    return Promise.resolve();
  }
  forget(server: string) {
    this.forgotten.push(server);
    return Promise.resolve();
  }
}

export interface ApiFixture {
  readonly app: Hono;
  readonly temp: TempStore;
  readonly clock: FakeClock;
  readonly writer: ActivityWriter;
  readonly catalog: QuietCatalog;
  readonly notified: string[];
  readonly secretsFile: string;
  /** Every response body read through `call`, raw, for leak checks. */
  readonly bodies: string[];
  call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of any route
  close(): Promise<void>;
}

/**
 * The real API app over a real SQLite store, the real ActivityWriter and the real
 * secret store (forced to its file, as every test does), with a quiet catalog.
 */
export async function createApiFixture(): Promise<ApiFixture> {
  const clock = new FakeClock('2026-03-01T12:00:00.000Z');
  const temp = await openTempStore(clock);
  const logger = silentLogger();
  const writer = new ActivityWriter({
    ...DEFAULT_ACTIVITY_SETTINGS,
    repository: temp.repos.activity,
    clock,
    logger,
  });
  const catalog = new QuietCatalog();
  const notified: string[] = [];
  const notifier: SessionNotifier = {
    capabilitiesChanged: (server) => notified.push(`capabilities:${server}`),
    serversChanged: () => notified.push('servers'),
  };
  const secretsFile = join(temp.dir, 'secrets.json');
  const services: ApiServices = {
    ...temp.repos,
    catalog,
    notifier,
    clock,
    logger,
    audit: writer,
    secrets: createSecretStore({ paths: { secretsFile }, env: { COFFER_KEYCHAIN: 'file' } }),
  };
  const app = createApiApp(services);
  const bodies: string[] = [];
  return {
    app,
    temp,
    clock,
    writer,
    catalog,
    notified,
    secretsFile,
    bodies,
    async call(method, path, body) {
      const response = await app.request(`/api/v1${path}`, {
        method,
        headers: { 'content-type': 'application/json', 'user-agent': 'coffer-test/1.0' },
        ...(body === undefined
          ? {}
          : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await response.text();
      bodies.push(text);
      return { status: response.status, json: text === '' ? null : JSON.parse(text) };
    },
    async close() {
      await writer.close();
      await temp.dispose();
    },
  };
}
