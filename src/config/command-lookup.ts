import { accessSync, constants, statSync } from 'node:fs';
import { posix, win32 } from 'node:path';

/**
 * Finds the file a command name runs, the way a spawn would: a name with a path in it
 * is taken as is (relative to `cwd`), a bare name is searched on PATH; on Windows with
 * each PATHEXT extension (`npx` is `npx.cmd`). Used by `coffer doctor` to say "not on
 * PATH" before a server fails, and by the Windows launch to spot `.cmd`/`.bat` shims.
 */
export interface CommandLookupOptions {
  readonly platform: string;
  /** The PATH the child would get (the merged login-shell PATH in the daemon). */
  readonly searchPath: string | undefined;
  /** Windows: the extensions a bare name may have; PATHEXT's default when absent. */
  readonly pathExt?: string | undefined;
  readonly cwd?: string;
  /** Whether `path` is a file this user may run; injectable so tests fake a Windows disk. */
  readonly isRunnable?: (path: string, platform: string) => boolean;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/** Whether a server's working directory is there: a spawn given anything else fails. */
export function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

export function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

export function isRunnableFile(path: string, platform: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    // Windows has no execute bit: an existing file with a runnable extension will do.
    if (platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findCommand(command: string, options: CommandLookupOptions): string | undefined {
  if (command === '') return undefined;
  const windows = options.platform === 'win32';
  const path = windows ? win32 : posix;
  const runnable = options.isRunnable ?? isRunnableFile;
  const candidates = (base: string): string[] => withExtensions(base, windows, options.pathExt);
  const hasDirectory = windows ? /[\\/]/.test(command) : command.includes('/');
  if (hasDirectory || path.isAbsolute(command)) {
    const base = path.resolve(options.cwd ?? '.', command);
    return candidates(base).find((candidate) => runnable(candidate, options.platform));
  }
  for (const directory of searchDirectories(options.searchPath, windows)) {
    const found = candidates(path.join(directory, command)).find((candidate) =>
      runnable(candidate, options.platform),
    );
    if (found !== undefined) return found;
  }
  return undefined;
}

export function searchDirectories(searchPath: string | undefined, windows: boolean): string[] {
  if (searchPath === undefined) return [];
  return searchPath
    .split(windows ? ';' : ':')
    .map((entry) => (windows ? entry.replace(/^"(.*)"$/, '$1') : entry))
    .filter((entry) => entry !== '');
}

/** Windows: `npx` may be `npx.cmd`; a name that already has a known extension is kept as is. */
function withExtensions(base: string, windows: boolean, pathExt: string | undefined): string[] {
  if (!windows) return [base];
  const extensions = (pathExt ?? DEFAULT_PATHEXT)
    .split(';')
    .map((extension) => extension.trim().toLowerCase())
    .filter((extension) => extension !== '');
  const lower = base.toLowerCase();
  if (extensions.some((extension) => lower.endsWith(extension))) return [base];
  return extensions.map((extension) => base + extension);
}
