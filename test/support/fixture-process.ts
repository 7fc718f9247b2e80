/**
 * The fake MCP server as a real child process, for tests: where its build lives, how to start it
 * over Streamable HTTP on an OS-assigned loopback port, and how to be sure it is gone afterwards.
 * (It is run from dist/, so `npm run build` must have run; `npm test` does that first.)
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fixtureServer } from './running-daemon.js';

/**
 * What the fixture does when timers or sockets keep it alive after shutdown: exits with this code
 * and logs this marker with the culprits. Keep in sync with fake-mcp-server.ts.
 */
export const FIXTURE_LEAK_EXIT_CODE = 3;
export const FIXTURE_LEAK_MARKER = 'ms after shutdown:';

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface FixtureHttp {
  /** e.g. http://127.0.0.1:41234/mcp */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Everything the fixture wrote to stderr so far (its log). */
  readonly stderr: () => string;
  /**
   * SIGTERM (SIGKILL after 20 s); resolves once the process has exited. Rejects when it did not
   * shut down cleanly: killed, or leaked timers/sockets. Safe to call twice, or after a crash.
   */
  readonly close: () => Promise<void>;
  /** How the process ended; resolves only after it has. */
  readonly exited: Promise<ProcessExit>;
}

export interface StartOptions {
  /** Replaces the child's environment (default: inherit this process's). */
  readonly env?: NodeJS.ProcessEnv;
  readonly readyTimeoutMs?: number;
}

export function assertFixtureBuilt(): void {
  if (!existsSync(fixtureServer)) {
    throw new Error(`${fixtureServer} is missing: run \`npm run build\` first`);
  }
}

/** Starts `fake-mcp-server --http 0 …args` and resolves once it reports its port. */
export async function startFixtureHttp(
  args: readonly string[] = [],
  options: StartOptions = {},
): Promise<FixtureHttp> {
  assertFixtureBuilt();
  const child = spawn(process.execPath, [fixtureServer, '--http', '0', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: options.env ?? process.env,
  });
  let log = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (log += chunk));
  const exited = waitForExit(child);
  try {
    // Only bounds a fixture that never listens: a cold node start under heavy load (load
    // average 30 on 2 cores, seen) took over 15 s.
    const port = await waitForPort(child, () => log, options.readyTimeoutMs ?? 60_000);
    return {
      url: `http://127.0.0.1:${port}/mcp`,
      port,
      pid: child.pid!,
      stderr: () => log,
      close: () => stopProcess(child, exited, () => log),
      exited,
    };
  } catch (error) {
    await stopProcess(child, exited, () => log).catch(() => undefined);
    throw error;
  }
}

/**
 * Resolves with the port a child reports as `listening <port>` on stderr, which `log` must
 * already be collecting (the fixture does this, and so does bench/loopback-listen.ts).
 */
export function waitForPort(
  child: ChildProcess,
  log: () => string,
  timeoutMs: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (message: string): void => {
      cleanup();
      reject(new Error(`${message}; fixture stderr:\n${log()}`));
    };
    const onData = (): void => {
      const match = /^listening (\d+)$/m.exec(log());
      if (!match) return;
      cleanup();
      resolve(Number(match[1]));
    };
    const onExit = (code: number | null): void => fail(`fixture exited with code ${code}`);
    const timer = setTimeout(() => fail(`fixture not listening after ${timeoutMs} ms`), timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stderr!.off('data', onData);
      child.off('exit', onExit);
    };
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
  });
}

export function waitForExit(child: ChildProcess): Promise<ProcessExit> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

export async function stopProcess(
  child: ChildProcess,
  exited: Promise<ProcessExit>,
  log: () => string,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  // A clean exit may be slow on a loaded machine; a SIGKILL here fails the test, so be patient.
  const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const { code, signal } = await exited;
  clearTimeout(killer);
  if (code === FIXTURE_LEAK_EXIT_CODE || signal === 'SIGKILL') {
    throw new Error(`fixture ${child.pid} did not shut down cleanly; stderr:\n${log()}`);
  }
}

/** True while a process with this pid exists (signal 0 only checks). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Polls until the pid is gone; throws if it outlives the timeout, which is generous because a
 * loaded machine can take seconds to run a process's shutdown.
 */
export async function expectProcessGone(pid: number, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} still alive after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
