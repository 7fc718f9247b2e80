import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Hono } from 'hono';
import { createApiApp, type ApiServices } from '../../../src/api/index.js';
import type {
  CapabilityCatalog,
  ServerCapabilities,
  ServerStatus,
  SessionNotifier,
} from '../../../src/domain/ports.js';
import { createRepositories, openDatabase, type Store } from '../../../src/store/index.js';

/** What the notifier was told, in order. */
export class RecordingNotifier implements SessionNotifier {
  readonly events: string[] = [];
  capabilitiesChanged(server: string): void {
    this.events.push(`capabilities:${server}`);
  }
  serversChanged(): void {
    this.events.push('servers');
  }
}

const emptyListing = { status: 'ok', items: [] } as const;

/**
 * A stand-in for the gateway's catalog, answering from fixed values. Used ONLY for
 * routes whose answer does not come from a live upstream (server CRUD shows status;
 * 404s are decided before the catalog is asked). Live listings are tested with the
 * real catalog and the fixture server.
 */
export class StaticCatalog implements CapabilityCatalog {
  readonly forgotten: string[] = [];
  failStatus = false;

  status(_server: string): ServerStatus {
    if (this.failStatus) throw new Error('secret path /home/someone/.coffer exploded');
    return { state: 'idle', last_error: null, counts: null };
  }
  capabilities(): Promise<ServerCapabilities> {
    return Promise.resolve({
      tools: emptyListing,
      prompts: emptyListing,
      resources: emptyListing,
      resource_templates: emptyListing,
    });
  }
  testConnection(): Promise<never> {
    return Promise.reject(new Error('staticCatalog cannot test connections'));
  }
  refresh(): Promise<void> {
    return Promise.resolve();
  }
  forget(server: string): Promise<void> {
    this.forgotten.push(server);
    return Promise.resolve();
  }
}

export interface ApiHarness {
  readonly app: Hono;
  readonly services: ApiServices & { notifier: RecordingNotifier };
  readonly catalog: StaticCatalog;
  /** Every log line the API wrote, parsed. */
  readonly logLines: Record<string, unknown>[];
  request(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** The API app over a real SQLite file in a fresh temp directory. */
export async function createApiHarness(
  catalogFor: (services: Omit<ApiServices, 'catalog'>) => CapabilityCatalog = () =>
    new StaticCatalog(),
  /** Optional services a test brings (a secret store, a sign-in flow, …). */
  extras: Partial<Omit<ApiServices, 'catalog' | 'notifier'>> = {},
): Promise<ApiHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'coffer-api-'));
  const store: Store = await openDatabase(join(dir, 'coffer.db'));
  const clock = { now: () => new Date() };
  const repositories = createRepositories(store, clock);
  const logLines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const base = {
    servers: repositories.servers,
    preferences: repositories.preferences,
    policies: repositories.policies,
    pins: repositories.pins,
    notifier: new RecordingNotifier(),
    clock,
    logger: pino({ level: 'debug' }, sink),
    ...extras,
  };
  const catalog = catalogFor(base);
  const services = { ...base, catalog };
  const app = createApiApp(services);
  return {
    app,
    services,
    catalog: catalog instanceof StaticCatalog ? catalog : new StaticCatalog(),
    logLines,
    request: async (method, path, body) =>
      await app.request(`/api/v1${path}`, {
        method,
        ...(body === undefined
          ? {}
          : {
              body: typeof body === 'string' ? body : JSON.stringify(body),
              headers: { 'content-type': 'application/json' },
            }),
      }),
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ErrorJson {
  error: { code: string; message: string; hint?: string; traceId: string };
}

/** Asserts nothing; returns the parsed error body for expectations. */
export async function errorOf(response: Response): Promise<ErrorJson['error']> {
  const body = (await response.json()) as ErrorJson;
  return body.error;
}

export const stdioServer = {
  name: 'files',
  transport: 'stdio',
  command: 'node',
  args: ['server.js', '--root', '/tmp'],
  env: { LOG_LEVEL: 'debug' },
  cwd: '/tmp',
} as const;

export const httpServer = {
  name: 'remote',
  transport: 'http',
  url: 'http://127.0.0.1:9/mcp',
  headers: { 'X-Team': 'blue' },
  secret_headers: ['Authorization'],
} as const;
