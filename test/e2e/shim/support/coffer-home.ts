import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePortRange } from '../../../support/free-port-range.js';
import { upstreamPids } from '../../../support/upstream-processes.js';
import { killAll, pidsWithArg, pidsWithEnv } from '../../../integration/shim/support/processes.js';
import { cofferBin } from '../../../integration/shim/support/shim-client.js';
import { fixtureServer as fixtureScript } from '../../../support/running-daemon.js';

export interface DaemonFile {
  readonly pid: number;
  readonly port: number;
  readonly token: string;
}

/**
 * A temporary Coffer home for one test file, with its own port range, where shims find
 * or spawn a real daemon. `cleanup` stops the daemon the way a user does (`coffer stop`)
 * and reports, then kills, any process of this home still alive.
 */
export interface CofferHome {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  daemonFile(): DaemonFile | undefined;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of any route
  /** Registers the fixture MCP server (stdio) as `name`; returns its command-line marker. */
  addFixture(name: string): Promise<string>;
  coffer(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** This home's processes still alive: shims, daemons, fixtures. */
  processes(): number[];
  cleanup(): Promise<number[]>;
}

export async function createCofferHome(): Promise<CofferHome> {
  const home = mkdtempSync(join(tmpdir(), 'coffer-shim-e2e-'));
  const env = { ...process.env, COFFER_HOME: home, COFFER_PORT_RANGE: (await freePortRange()).env };
  const markers: string[] = [];
  const daemonFile = (): DaemonFile | undefined => {
    const file = join(home, 'daemon.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DaemonFile) : undefined;
  };
  const processes = (): number[] => [
    ...new Set([
      ...pidsWithEnv('COFFER_HOME', home),
      ...markers.flatMap(pidsWithArg),
      // Upstreams run with a clean environment: the daemon's records name them.
      ...upstreamPids(home),
    ]),
  ];
  const coffer = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [cofferBin, ...args], { env }, (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      });
    });
  const api: CofferHome['api'] = async (method, path, body) => {
    const daemon = daemonFile();
    if (daemon === undefined) throw new Error('no daemon.json');
    const response = await fetch(`http://127.0.0.1:${daemon.port}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${daemon.token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : JSON.parse(text) };
  };
  return {
    home,
    env,
    daemonFile,
    api,
    coffer,
    processes,
    async addFixture(name) {
      const marker = `shim-e2e-${randomUUID()}`;
      markers.push(marker);
      const args = [fixtureScript, '--scenario', 'basic', '--name', marker];
      const created = await api('POST', '/servers', {
        name,
        transport: 'stdio',
        command: process.execPath,
        args,
      });
      if (created.status !== 201 && created.status !== 200) {
        throw new Error(
          `registering ${name}: HTTP ${created.status} ${JSON.stringify(created.body)}`,
        );
      }
      return marker;
    },
    async cleanup() {
      if (daemonFile() !== undefined) await coffer('stop');
      // Upstreams get a moment to see their stdin close after the daemon exits (seconds, on a
      // loaded machine).
      const deadline = Date.now() + 30_000;
      while (processes().length > 0 && Date.now() < deadline) {
        await new Promise((done) => setTimeout(done, 100));
      }
      const leftovers = killAll(processes());
      rmSync(home, { recursive: true, force: true });
      return leftovers;
    },
  };
}
