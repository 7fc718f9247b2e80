/**
 * A Coffer daemon for the bench: the built `node bin/coffer.js daemon` in its own temporary
 * COFFER_HOME and loopback port range, upstreams registered through the REST API, and
 * stopped with `coffer stop` the way a user stops it.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { HOME_PREFIX, adopt, isAlive, spawnOwned, stopChild, waitGone } from './processes.js';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const cofferBin = join(repoRoot, 'bin/coffer.js');

export interface StdioServer {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Registered `shared`: one upstream connection for every session (opt-in). */
  readonly shared?: boolean;
}

export interface BenchDaemon {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  readonly pid: number;
  readonly url: string;
  readonly token: string;
  api(method: string, path: string, body?: unknown): Promise<unknown>;
  addServer(server: StdioServer): Promise<void>;
  /** Registers a remote server by its Streamable HTTP URL. */
  addRemoteServer(name: string, url: string): Promise<void>;
  stop(): Promise<void>;
}

export interface DaemonOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Run the daemon under `--cpu-prof`, writing the profile here when it stops. */
  readonly cpuProfDir?: string | undefined;
  /** More node/V8 flags before the script (e.g. `--max-semi-space-size=32`). */
  readonly nodeArgs?: readonly string[];
  /** Receives the daemon's stdout (e.g. `--trace-gc` lines); ignored when absent. */
  readonly onStdout?: (chunk: string) => void;
  /** The `bin/coffer.js` to run: another built clone's, to set two builds side by side. */
  readonly bin?: string;
}

/** Node flags that write a CPU profile into `dir` when the process exits. */
export function cpuProfArgs(dir: string | undefined): string[] {
  return dir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/** A fresh COFFER_HOME with its own free port range, nothing running in it yet. */
export async function newHome(extra: Readonly<Record<string, string>> = {}) {
  const home = mkdtempSync(HOME_PREFIX);
  const range = await freePortRange();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    COFFER_HOME: home,
    COFFER_PORT_RANGE: range,
    ...extra,
  };
  return { home, env };
}

export async function startDaemon(options: DaemonOptions = {}): Promise<BenchDaemon> {
  const { home, env } = await newHome(options.env);
  const bin = options.bin ?? cofferBin;
  const child = spawnOwned(
    process.execPath,
    [...cpuProfArgs(options.cpuProfDir), ...(options.nodeArgs ?? []), bin, 'daemon'],
    {
      env,
      stdio: ['ignore', options.onStdout === undefined ? 'ignore' : 'pipe', 'pipe'],
    },
  );
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => options.onStdout?.(chunk));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const info = await readDaemonFile(home, () => child.exitCode !== null).catch(
    async (error: unknown) => {
      await stopChild(child);
      throw new Error(`daemon did not start: ${String(error)} ${stderr}`);
    },
  );
  const url = `http://127.0.0.1:${info.port}`;
  const api = apiCaller(url, info.token);
  return {
    home,
    env,
    pid: info.pid,
    url,
    token: info.token,
    api,
    async addServer(server) {
      await api('POST', '/servers', { ...server, transport: 'stdio' });
    },
    async addRemoteServer(name, url) {
      await api('POST', '/servers', { name, transport: 'http', url });
    },
    async stop() {
      await stopDaemonAt(env, info.pid, bin);
      await stopChild(child);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

function apiCaller(url: string, token: string) {
  return async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text}`);
    return text === '' ? null : (JSON.parse(text) as unknown);
  };
}

interface DaemonFile {
  readonly pid: number;
  readonly port: number;
  readonly token: string;
}

/** Waits for daemon.json (written once the daemon listens). */
export async function readDaemonFile(home: string, exited: () => boolean): Promise<DaemonFile> {
  const file = join(home, 'daemon.json');
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('daemon exited');
    if (existsSync(file)) {
      try {
        const info = JSON.parse(readFileSync(file, 'utf8')) as DaemonFile;
        adopt(info.pid);
        return info;
      } catch {
        // a partial read: try again
      }
    }
    await sleep(25);
  }
  throw new Error('no daemon.json after 20 s');
}

const execFileAsync = promisify(execFile);

/** `coffer stop` for that home; the pid is killed only if it outlives the stop. */
export async function stopDaemonAt(
  env: NodeJS.ProcessEnv,
  pid?: number,
  bin = cofferBin,
): Promise<void> {
  await execFileAsync(process.execPath, [bin, 'stop'], { env, timeout: 15_000 }).catch(
    () => undefined,
  );
  if (pid !== undefined && !(await waitGone(pid, 10_000)) && isAlive(pid)) {
    process.kill(pid, 'SIGKILL');
  }
}

/** A block of free loopback ports for one daemon, as `COFFER_PORT_RANGE` (lo-hi). */
async function freePortRange(size = 3): Promise<string> {
  const lo = await freePorts(size);
  return `${lo}-${lo + size - 1}`;
}

/** The first of `size` consecutive loopback ports that are free now. */
export async function freePorts(size = 1): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const lo = 20_000 + Math.floor(Math.random() * 40_000);
    const ports = Array.from({ length: size }, (_, i) => lo + i);
    const free = await Promise.all(ports.map(isPortFree));
    if (free.every(Boolean)) return lo;
  }
  throw new Error('no free port range found');
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}
