import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cofferPaths } from '../../../src/config/home.js';
import { ensurePrivateDir } from '../../../src/config/private-files.js';
import { readSettings, type DaemonSettings } from '../../../src/config/settings.js';
import { createServices } from '../../../src/daemon/services.js';
import type { DaemonServices } from '../../../src/daemon/daemon-services.js';
import { silentLogger } from '../../../src/observability/logger.js';
import { fixtureServer } from '../../support/running-daemon.js';

/** The daemon's real composition in this process, and its REST API to call. */
export interface LiveServices {
  readonly services: DaemonServices;
  /** One request to `/api/v1<path>`, a JSON body when given. */
  call(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The daemon's services (SQLite store, admin catalog, real upstream processes) over a
 * temporary home, without its HTTP server: what the routes with live upstreams are tested
 * through. `settings` change the environment's (a shorter list deadline, say).
 */
export async function startLiveServices(
  settings: Partial<DaemonSettings> = {},
): Promise<LiveServices> {
  if (!existsSync(fixtureServer))
    throw new Error(`${fixtureServer} is missing: run \`npm run build\` first`);
  const home = mkdtempSync(join(tmpdir(), 'coffer-api-live-'));
  const paths = cofferPaths(home);
  ensurePrivateDir(paths.logsDir);
  const services = await createServices({
    paths,
    logger: silentLogger(),
    port: 0,
    token: 'test',
    settings: { ...readSettings(), ...settings },
    startedAt: new Date(),
  });
  return {
    services,
    async call(method, path, body) {
      const init: RequestInit = { method };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        init.headers = { 'content-type': 'application/json' };
      }
      return await services.api.fetch(new Request(`http://127.0.0.1/api/v1${path}`, init));
    },
    async close() {
      await services.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
