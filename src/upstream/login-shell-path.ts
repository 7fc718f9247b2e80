import { spawn } from 'node:child_process';
import { findCommand, searchDirectories } from '../config/command-lookup.js';

/**
 * The PATH the user's terminal has. An app started from the Dock, Finder or a desktop
 * launcher inherits a bare PATH (/usr/bin:/bin…) without nvm, Homebrew or ~/.local/bin,
 * so `npx` is "not found" although it works in a terminal. Asking the login shell once
 * (`$SHELL -ilc`) finds the real one. Bounded by a timeout: a slow or interactive rc file
 * must not hold up the daemon; on failure the inherited PATH is used as it is.
 */
export interface LoginShellPathOptions {
  readonly platform: string;
  readonly shell: string | undefined;
  readonly timeoutMs?: number;
  /** Runs the shell and resolves its stdout; injectable for tests. */
  readonly run?: (shell: string, args: readonly string[], timeoutMs: number) => Promise<string>;
}

const MARK = '__COFFER_PATH__';
const DEFAULT_TIMEOUT_MS = 5_000;

export async function loginShellPath(options: LoginShellPathOptions): Promise<string | undefined> {
  // Windows apps get the user's PATH from the registry: there is nothing to ask.
  if (options.platform === 'win32' || options.shell === undefined || options.shell === '')
    return undefined;
  const run = options.run ?? runShell;
  // Markers around the value: rc files may print banners before or after it.
  const script = `printf '${MARK}%s${MARK}' "$PATH"`;
  try {
    const output = await run(
      options.shell,
      ['-ilc', script],
      options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    );
    const match = new RegExp(`${MARK}(.*?)${MARK}`, 's').exec(output);
    const value = match?.[1]?.trim();
    return value === undefined || value === '' ? undefined : value;
  } catch {
    return undefined;
  }
}

/** The login shell's entries first (what a terminal finds first), then the inherited ones it lacks. */
export function mergeSearchPaths(
  inherited: string | undefined,
  login: string | undefined,
  platform: string,
): string | undefined {
  if (login === undefined) return inherited;
  const windows = platform === 'win32';
  const merged = [
    ...new Set([...searchDirectories(login, windows), ...searchDirectories(inherited, windows)]),
  ];
  return merged.join(windows ? ';' : ':');
}

function runShell(shell: string, args: readonly string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(shell, [...args], {
      stdio: ['ignore', 'pipe', 'ignore'],
      // Its own session, no terminal: an interactive shell that finds the caller's
      // terminal tries to take it over and is stopped (SIGTTOU) until the timeout.
      detached: true,
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
      windowsHide: true,
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (output.length < 64 * 1024) output += chunk;
      // Done once the value is out: something an rc file started in the background may
      // hold stdout open long after the shell itself is gone.
      if (output.split(MARK).length >= 3) {
        child.stdout.destroy();
        resolve(output);
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (signal !== null) reject(new Error(`login shell ended by ${signal}`));
      else if (!output.includes(MARK)) reject(new Error(`login shell exited ${code}`));
      else resolve(output);
    });
  });
}

/**
 * Starts asking the login shell now and resolves the merged PATH when it answered or
 * gave up (`coffer doctor` shows it).
 */
export function startSearchPath(
  env: Readonly<Record<string, string | undefined>>,
  platform: string,
  options: Pick<LoginShellPathOptions, 'run' | 'timeoutMs'> = {},
): Promise<string | undefined> {
  return loginShellPath({ platform, shell: env['SHELL'], ...options }).then((login) =>
    mergeSearchPaths(env['PATH'], login, platform),
  );
}

export interface SearchPath {
  /**
   * The PATH to spawn `command` with: undefined (keep the inherited one) when the
   * inherited PATH finds it or it names a file; else the merged login-shell PATH.
   */
  forCommand(command: string): Promise<string | undefined>;
  /** The merged PATH; asks the login shell (once) if nobody did yet. */
  merged(): Promise<string | undefined>;
}

/**
 * The login shell is asked lazily, once, the first time a command is not on the
 * inherited PATH: a daemon started from a terminal (or by tests) never pays for it,
 * and one started from a GUI app pays once, bounded by the timeout.
 */
export function createSearchPath(
  env: Readonly<Record<string, string | undefined>>,
  platform: string,
  options: Pick<LoginShellPathOptions, 'run' | 'timeoutMs'> & {
    readonly isRunnable?: (path: string, platform: string) => boolean;
  } = {},
): SearchPath {
  let merged: Promise<string | undefined> | undefined;
  const ask = (): Promise<string | undefined> =>
    (merged ??= startSearchPath(env, platform, options));
  return {
    merged: ask,
    forCommand: async (command) => {
      const hasDirectory = platform === 'win32' ? /[\\/]/.test(command) : command.includes('/');
      if (command === '' || hasDirectory) return undefined;
      const found = findCommand(command, {
        platform,
        searchPath: env['PATH'],
        pathExt: env['PATHEXT'],
        ...(options.isRunnable === undefined ? {} : { isRunnable: options.isRunnable }),
      });
      if (found !== undefined) return undefined;
      const path = await ask();
      return path === env['PATH'] ? undefined : path;
    },
  };
}
