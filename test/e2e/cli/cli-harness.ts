import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
export { fixtureServer as FIXTURE } from '../../support/running-daemon.js';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
export const COFFER_BIN = join(root, 'bin', 'coffer.js');

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A server as `coffer mcp list --json` and `coffer mcp show --json` print it. */
export interface ServerJson {
  name: string;
  transport: string;
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  secret_env: string[];
  secret_headers: string[];
  enabled: boolean;
  status: { state: string };
}

export interface CliHarness {
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  /** Unique per harness: put it on fixture command lines to find their processes later. */
  readonly marker: string;
  run(...args: string[]): Promise<RunResult>;
  /** A command typed in folder `cwd` (the others run in the repository's root). */
  runIn(cwd: string, ...args: string[]): Promise<RunResult>;
  /** `coffer stop`, then removes the home. Safe to call twice. */
  close(): Promise<void>;
}

/** Runs a program to its end: its exit code (-1 when it never ran or was killed) and output. */
export function runProgram(
  file: string,
  args: readonly string[],
  options: { readonly env: NodeJS.ProcessEnv; readonly cwd?: string },
): Promise<RunResult> {
  return new Promise((done) => {
    execFile(
      file,
      [...args],
      { ...options, timeout: 60_000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
  });
}

/**
 * A temporary Coffer home and a port block of its own (19000–19999, 10 ports), so
 * e2e runs never meet the user's daemon nor each other's.
 */
/** `extraEnv` reaches the daemon too: the first command starts it with this environment. */
export function createCliHarness(extraEnv: NodeJS.ProcessEnv = {}): CliHarness {
  const home = mkdtempSync(join(tmpdir(), 'coffer-e2e-cli-'));
  const first = 19_000 + Math.floor(Math.random() * 100) * 10;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    COFFER_HOME: home,
    COFFER_PORT_RANGE: `${first}-${first + 9}`,
    NO_COLOR: '1',
    ...extraEnv,
  };
  delete env['FORCE_COLOR'];
  delete env['COFFER_DEBUG'];
  const marker = `e2e-${home.slice(-6).toLowerCase()}`;
  const runIn = (cwd: string, ...args: string[]): Promise<RunResult> =>
    runProgram(process.execPath, [COFFER_BIN, ...args], { env, cwd });
  const run = (...args: string[]): Promise<RunResult> => runIn(root, ...args);
  let closed = false;
  return {
    home,
    env,
    marker,
    run,
    runIn,
    close: async () => {
      if (closed) return;
      closed = true;
      if (existsSync(join(home, 'daemon.json'))) await run('stop');
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Pids of live processes whose command line contains `marker` (Linux /proc). */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(marker)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

/** The one line a failed command must print: `coffer: …`, nothing else. */
export function oneErrorLine(result: RunResult): string {
  const lines = result.stderr.trimEnd().split('\n');
  if (lines.length !== 1 || !lines[0]?.startsWith('coffer: '))
    throw new Error(`expected one "coffer: …" line on stderr, got:\n${result.stderr}`);
  return lines[0];
}
