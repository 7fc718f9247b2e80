/**
 * Start-up: from spawning `coffer shim` to the initialize result on its stdout, with the
 * daemon already running and with no daemon (the shim starts one). The fixture server's
 * own spawn → initialize result is measured in the same rounds as the floor: any stdio MCP
 * server pays it.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { cofferBin, newHome, readDaemonFile, stopDaemonAt, type BenchDaemon } from './daemon.js';
import { spawnOwned, stopChild } from './processes.js';
import { median, since } from './stats.js';
import { FIXTURE } from './upstreams.js';

export interface StartupProfile {
  readonly runningReps: number;
  readonly notRunningReps: number;
}

export interface StartupFigure {
  /** Median, in ms. */
  readonly ms: number;
  readonly samples: readonly number[];
}

export interface StartupResult {
  readonly shimDaemonRunning: StartupFigure;
  readonly shimDaemonNotRunning: StartupFigure;
  readonly fixtureStdio: StartupFigure;
  readonly bareNode: StartupFigure;
}

/** The floor of any Node program: start, read one line, answer it. */
const BARE_NODE = [
  '-e',
  `process.stdin.once('data', () => process.stdout.write('{"result":{}}\\n', () => process.exit(0)))`,
];

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'coffer-bench', version: '1.0.0' },
  },
})}\n`;

export async function measureStartup(
  daemon: BenchDaemon,
  profile: StartupProfile,
): Promise<StartupResult> {
  const running: number[] = [];
  const fixture: number[] = [];
  const bare: number[] = [];
  for (let rep = 0; rep < profile.runningReps; rep++) {
    bare.push(await timeInitialize(process.execPath, BARE_NODE, process.env));
    fixture.push(await timeInitialize(process.execPath, [FIXTURE], process.env));
    running.push(await timeInitialize(process.execPath, [cofferBin, 'shim'], daemon.env));
  }
  const cold: number[] = [];
  for (let rep = 0; rep < profile.notRunningReps; rep++) cold.push(await shimWithoutDaemon());
  return {
    shimDaemonRunning: figure(running),
    shimDaemonNotRunning: figure(cold),
    fixtureStdio: figure(fixture),
    bareNode: figure(bare),
  };
}

function figure(samples: number[]): StartupFigure {
  return { ms: median(samples), samples };
}

/** A fresh home: the shim finds no daemon and starts one, which is stopped afterwards. */
async function shimWithoutDaemon(): Promise<number> {
  const { home, env } = await newHome();
  try {
    return await timeInitialize(process.execPath, [cofferBin, 'shim'], env);
  } finally {
    const info = await readDaemonFile(home, () => false).catch(() => undefined);
    await stopDaemonAt(env, info?.pid);
    rmSync(home, { recursive: true, force: true });
  }
}

/** Spawns the server, writes initialize, resolves when the result line arrives. */
async function timeInitialize(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const start = performance.now();
  const child = spawnOwned(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
  try {
    child.stdin?.write(INITIALIZE);
    await initializeResult(child);
    return since(start);
  } finally {
    child.stdin?.end();
    const timer = setTimeout(() => void stopChild(child), 3_000);
    await new Promise((resolve) =>
      child.exitCode === null ? child.once('exit', resolve) : resolve(0),
    );
    clearTimeout(timer);
  }
}

function initializeResult(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error('no initialize result in 30 s')), 30_000);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffered += chunk;
      if (!buffered.includes('\n')) return;
      clearTimeout(timer);
      const first = buffered.slice(0, buffered.indexOf('\n'));
      if (first.includes('"result"')) resolve();
      else reject(new Error(`initialize failed: ${first.slice(0, 300)}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before answering`));
    });
  });
}
