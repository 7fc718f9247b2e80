import type { FormState } from './server-form-model.js';

/** What a file of a server's usually ends with: `server.py`, `build/index.js`. */
const SCRIPT = /\.(m?js|cjs|ts|py)$/i;

/**
 * Whether a word of a command line names a file by a path relative to where it runs
 * (`build/index.js`, `./server.py`), as opposed to an absolute path, a home path, an
 * option, a URL, or a package name (`@scope/server`, `mcp-server-fetch`).
 */
export function isRelativePath(word: string): boolean {
  if (word === '' || /^[/~\\-]/.test(word) || /^[A-Za-z]:[\\/]/.test(word)) return false;
  if (word.startsWith('@') || word.includes('://') || word.includes('=')) return false;
  return word.startsWith('.') || word.includes('/') || word.includes('\\') || SCRIPT.test(word);
}

/**
 * The command's and arguments' relative paths, when no working directory is given: the
 * daemon does not run where the user's shell is, so `node build/index.js` would look for
 * the file in the daemon's own folder. The CLI resolves them to the folder it is typed
 * in; the form cannot know that folder, so it says so before the server fails to start.
 */
export function unresolvedPaths(form: FormState): string[] {
  if (form.transport !== 'stdio' || form.cwd.trim() !== '') return [];
  const words = [form.command, ...form.args.split('\n')].map((word) => word.trim());
  return words.filter(isRelativePath);
}

/** The Working directory hint while some path is relative and no folder is set. */
export function relativePathsHint(paths: readonly string[]): string | undefined {
  const [first] = paths;
  if (first === undefined) return undefined;
  return `"${first}" is a relative path: give the folder it is in here (or make it absolute). Left empty, Coffer looks for it in its own folder, not where you typed it, and the server does not start.`;
}
