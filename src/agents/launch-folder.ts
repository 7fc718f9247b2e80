import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { AgentContext, ConfigLocation } from './types.js';

/**
 * The folder a local server's relative paths were written against: the folder `coffer mcp
 * add` runs in, or the project of a project file (Claude Code, Cursor and VS Code start
 * those servers in the project). The daemon starts servers from its own folder, the home
 * folder, where `node build/index.js` names nothing; a server that names a path of this
 * folder is given the folder as its cwd, so it runs as it did in the user's shell and its
 * arguments stay as written.
 */
export interface LaunchFolder {
  readonly dir: string;
  /** Whether a path exists; injected, so that import plans stay pure in tests. */
  readonly exists: (path: string) => boolean;
}

export function launchFolder(dir: string): LaunchFolder {
  return { dir, exists: existsSync };
}

/** The folder this process runs in; undefined once it was deleted under it. */
export function processFolder(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

/** Where a file's entries were written: what their relative paths and path variables mean. */
export interface EntryPlace {
  /** The project of a project (or Claude Code local) file; absent for a user file. */
  readonly folder?: LaunchFolder | undefined;
  readonly homeDir: string;
}

/**
 * The place of a file's entries: its project for a project or local file; no folder for a
 * user file, whose servers the agent starts from wherever it runs.
 */
export function placeOf(location: ConfigLocation, context: AgentContext): EntryPlace {
  const { homeDir } = context;
  return location.scope === 'user' ? { homeDir } : { folder: launchFolder(context.cwd), homeDir };
}

/** The place of entries typed or pasted in the folder the CLI runs in (mcp add-json, --file). */
export function placeHere(context: AgentContext): EntryPlace {
  return { folder: launchFolder(context.cwd), homeDir: context.homeDir };
}

/** How a local server is started, as far as its folder goes. */
export interface Launch {
  readonly command?: string | undefined;
  readonly args: readonly string[];
  readonly cwd?: string | undefined;
}

/** The cwd a server is given, and the words that tell the user why. */
export interface Anchored {
  readonly cwd: string;
  readonly note: string;
}

/**
 * The cwd `launch` needs to run from the daemon as it would in `folder`: a relative cwd
 * resolved there, or `folder` itself when the command or an argument is a relative path
 * that exists there. Undefined: nothing to anchor (absolute paths, packages, flags).
 */
export function anchorLaunch(launch: Launch, folder: LaunchFolder): Anchored | undefined {
  const { cwd } = launch;
  if (cwd !== undefined) {
    if (!isRelativePath(cwd)) return undefined;
    const resolved = resolve(folder.dir, cwd);
    return { cwd: resolved, note: `its relative cwd "${cwd}" is ${resolved}` };
  }
  // A bare command is found on the PATH, not in the folder: only `./run.sh`, `bin/server`.
  const command = launch.command ?? '';
  const candidates = hasSeparator(command) ? [command, ...launch.args] : launch.args;
  const path = candidates.find(
    (text) => isRelativePath(text) && folder.exists(resolve(folder.dir, text)),
  );
  if (path === undefined) return undefined;
  return { cwd: folder.dir, note: `runs in ${folder.dir}, where its relative path "${path}" is` };
}

/** Not a flag, a URL, a placeholder the agent expands, `~` (the shell's), or absolute. */
function isRelativePath(text: string): boolean {
  if (text === '' || text.startsWith('-') || text.startsWith('~')) return false;
  if (text.includes('$') || text.includes('://')) return false;
  return !isAbsolute(text);
}

function hasSeparator(text: string): boolean {
  return text.includes('/') || (process.platform === 'win32' && text.includes('\\'));
}
