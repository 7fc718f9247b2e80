import { spawn } from 'node:child_process';
import { searchDirectories } from '../config/command-lookup.js';

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
const DEFAULT_TIMEOUT_MS = 3_000;

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
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
      windowsHide: true,
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (output.length < 64 * 1024) output += chunk;
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (signal !== null) reject(new Error(`login shell ended by ${signal}`));
      else if (code !== 0 && !output.includes(MARK))
        reject(new Error(`login shell exited ${code}`));
      else resolve(output);
    });
  });
}

/**
 * Starts asking the login shell now and resolves the merged PATH when it answered or
 * gave up: the daemon calls this at start and awaits it only before a first spawn.
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
