/**
 * Shared by the daemon integration and e2e tests: temporary homes, free port ranges,
 * running the built `bin/coffer.js`, and cleaning up every process a test started
 * (by pid, never by name).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isCofferDaemonProcess, isProcessAlive } from '../../../src/discovery/process-check.js';
import { TEST_PORTS } from '../../support/free-port-range.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const binPath = join(repoRoot, 'bin', 'coffer.js');
export const distDiscovery = join(repoRoot, 'dist', 'src', 'discovery', 'index.js');

export function assertBuilt(): void {
  if (!existsSync(join(repoRoot, 'dist', 'src', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the integration tests');
  }
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

export async function makeHome(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'coffer-test-'));
}

export async function removeHome(home: string): Promise<void> {
  await rm(home, { recursive: true, force: true });
}

function listen(port: number): Promise<Server | undefined> {
  return new Promise((resolveListen) => {
    const server = createServer();
    server.once('error', () => resolveListen(undefined));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolveListen(server));
  });
}

export async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
}

export interface PortBlock {
  readonly first: number;
  readonly last: number;
  /** The COFFER_PORT_RANGE value. */
  readonly env: string;
}

/** A random block of `size` ports among the TEST_PORTS, each free when checked. */
export async function freePortBlock(size = 4): Promise<PortBlock> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const blocks = (TEST_PORTS.hi - TEST_PORTS.lo) / 10;
    const first = TEST_PORTS.lo + Math.floor(Math.random() * blocks) * 10;
    const held: Server[] = [];
    let free = true;
    for (let port = first; port < first + size; port += 1) {
      const server = await listen(port);
      if (server === undefined) {
        free = false;
        break;
      }
      held.push(server);
    }
    await Promise.all(held.map(closeServer));
    if (free) return { first, last: first + size - 1, env: `${first}-${first + size - 1}` };
  }
  throw new Error('no free port block found');
}

/** Occupies every port of the block with our own listeners. */
export async function occupy(block: PortBlock): Promise<Server[]> {
  const servers: Server[] = [];
  for (let port = block.first; port <= block.last; port += 1) {
    const server = await listen(port);
    if (server === undefined) throw new Error(`port ${port} is not free`);
    servers.push(server);
  }
  return servers;
}

export interface CofferEnv {
  readonly home: string;
  readonly portRange: string;
  readonly extra?: NodeJS.ProcessEnv;
}

export function cofferEnv({ home, portRange, extra }: CofferEnv): NodeJS.ProcessEnv {
  return {
    ...process.env,
    COFFER_HOME: home,
    COFFER_PORT_RANGE: portRange,
    COFFER_DEBUG: '',
    ...extra,
  };
}

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node bin/coffer.js <args>` to completion (killed by pid after `timeoutMs`). */
export function runCoffer(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 45_000,
  cwd?: string,
): Promise<RunResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(cwd === undefined ? {} : { cwd }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr });
    });
  });
}

export interface ExitResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export function exited(child: ChildProcess): Promise<ExitResult> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
}

/** How often a condition wait looks again (it waits on the condition, not on this). */
const POLL_MS = 50;

export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(POLL_MS);
  }
}

export function readDaemonJson(home: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(join(home, 'daemon.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Pids of every daemon that logged "daemon listening" in this home's log. */
export function daemonPidsLogged(home: string): number[] {
  let text: string;
  try {
    text = readFileSync(join(home, 'logs', 'coffer.log'), 'utf8');
  } catch {
    return [];
  }
  const pids = new Set<number>();
  for (const line of text.split('\n')) {
    if (!line.includes('"daemon listening"')) continue;
    try {
      const entry = JSON.parse(line) as { pid?: unknown };
      if (typeof entry.pid === 'number') pids.add(entry.pid);
    } catch {
      // a partial line
    }
  }
  return [...pids];
}

export async function waitForExit(pid: number, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

/** SIGTERM, then SIGKILL after a grace period. Only for pids this test started. */
export async function terminate(pid: number): Promise<void> {
  if (!isProcessAlive(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  if (await waitForExit(pid, 8_000)) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone meanwhile
  }
  await waitForExit(pid, 2_000);
}

/**
 * Tracks what a test started: child processes it spawned, and the homes whose daemons
 * (started by the CLI or ensureDaemon, detached) must be stopped afterwards. A daemon
 * pid is taken from the home's daemon.json and log, and killed only while it still is
 * a coffer-daemon process.
 */
export class ProcessTracker {
  private readonly children = new Set<ChildProcess>();
  private readonly homes = new Set<string>();

  child<T extends ChildProcess>(child: T): T {
    this.children.add(child);
    return child;
  }

  home(home: string): string {
    this.homes.add(home);
    return home;
  }

  /** A tracked temporary home, a free port block and the env a user would run with. */
  async userEnv(ports = 3) {
    const home = this.home(await makeHome());
    const block = await freePortBlock(ports);
    return { home, block, env: cofferEnv({ home, portRange: block.env }) };
  }

  daemonPids(): number[] {
    const pids = new Set<number>();
    for (const home of this.homes) {
      const record = readDaemonJson(home);
      if (typeof record?.['pid'] === 'number') pids.add(record['pid']);
      for (const pid of daemonPidsLogged(home)) pids.add(pid);
    }
    return [...pids];
  }

  async cleanup(): Promise<void> {
    const children = [...this.children];
    this.children.clear();
    await Promise.all(
      children.map(async (child) => {
        if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
          await terminate(child.pid);
        }
      }),
    );
    const daemons = this.daemonPids().filter(
      (pid) => isProcessAlive(pid) && isCofferDaemonProcess(pid),
    );
    await Promise.all(daemons.map((pid) => terminate(pid)));
    const homes = [...this.homes];
    this.homes.clear();
    await Promise.all(homes.map(removeHome));
  }
}

/** Spawns `node bin/coffer.js daemon` in the foreground (a child of the test). */
export function spawnForegroundDaemon(env: NodeJS.ProcessEnv): ChildProcess & {
  output: () => string;
} {
  const child = spawn(process.execPath, [binPath, 'daemon'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return Object.assign(child, { output: () => output });
}

/** A process titled coffer-daemon that listens on nothing: "TCP refused". */
export function spawnFakeDaemon(): ChildProcess {
  return spawn(
    process.execPath,
    ['-e', "process.title = 'coffer-daemon'; setInterval(() => {}, 1000);"],
    { stdio: 'ignore' },
  );
}

/** Waits until a spawned child's title is visible (it is set right after start). */
export async function waitForTitle(pid: number): Promise<void> {
  await waitFor(() => isCofferDaemonProcess(pid) || undefined, `pid ${pid} to be titled`);
}
