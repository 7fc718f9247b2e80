/**
 * The upstreams the bench measures through every target: the fixture server's `echo`, and
 * `@modelcontextprotocol/server-everything`'s `echo`. Each runs over stdio (spawned by the
 * direct client or by Coffer) or serves Streamable HTTP on a loopback port.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './daemon.js';
import { spawnOwned, stopChild } from './processes.js';

export const FIXTURE = join(repoRoot, 'dist/test/fixtures/fake-mcp-server.js');
const EVERYTHING = join(
  repoRoot,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
/** Makes an HTTP server (server-everything, mcp-hub) listen on 127.0.0.1 only and report its port. */
export const LOOPBACK_PRELOAD = join(repoRoot, 'dist/bench/loopback-listen.js');

export interface HttpUpstream {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export interface UpstreamSpec {
  readonly id: 'fixture' | 'everything';
  readonly label: string;
  /** The name it is registered under in Coffer (its tools become `<name>__<tool>`). */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  startHttp(): Promise<HttpUpstream>;
}

export const fixtureUpstream: UpstreamSpec = {
  id: 'fixture',
  label: 'fixture server `echo`',
  name: 'fx',
  command: process.execPath,
  args: [FIXTURE, '--scenario', 'basic'],
  tool: 'echo',
  arguments: { message: 'bench' },
  startHttp: () => startHttpServer([FIXTURE, '--http', '0'], {}),
};

export const everythingUpstream: UpstreamSpec = {
  id: 'everything',
  label: 'server-everything `echo`',
  name: 'everything',
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  tool: 'echo',
  arguments: { message: 'bench' },
  startHttp: () =>
    startHttpServer(['--import', LOOPBACK_PRELOAD, EVERYTHING, 'streamableHttp'], { PORT: '0' }),
};

/** The fan-out upstreams: the fixture with `--tool-count`, optionally slow to start. */
export function fanOutServer(index: number, toolCount: number, initDelayMs = 0) {
  const delay = initDelayMs > 0 ? ['--init-delay-ms', String(initDelayMs)] : [];
  return {
    name: `fx${String(index).padStart(2, '0')}`,
    command: process.execPath,
    // Exactly `toolCount` tools: the fixture's own (echo, …) would add 17 per server.
    args: [FIXTURE, '--tool-count', String(toolCount), '--generated-only', ...delay],
  };
}

/** A Node script (`args`) serving HTTP on loopback, once it has said `listening <port>` on stderr. */
export async function startHttpServer(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<HttpUpstream> {
  const child = spawnOwned(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const port = await listeningPort(child);
    return {
      url: `http://127.0.0.1:${port}/mcp`,
      pid: child.pid ?? -1,
      stop: () => stopChild(child),
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}

/** Resolves with the port a child reports as `listening <port>` on stderr (15 s at most). */
export function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`no port after 15 s: ${log}`)), 15_000);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      log += chunk;
      const match = /^listening (\d+)$/m.exec(log);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${log}`));
    });
  });
}
