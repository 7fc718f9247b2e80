import { statSync } from 'node:fs';

/** Whether the files a daemon was started from are still the ones on disk. */
export interface CodeStamp {
  /** The file watched: the daemon's own code. */
  readonly path: string;
  /** True once that file was rewritten or removed since the daemon started. */
  replaced(): boolean;
}

type Stat = (path: string) => { readonly mtimeMs: number; readonly size: number };

function identity(stat: Stat, path: string): string | undefined {
  try {
    const { mtimeMs, size } = stat(path);
    return `${mtimeMs}:${size}`;
  } catch {
    return undefined;
  }
}

/**
 * A daemon runs the code it loaded at start; updating or rebuilding Coffer replaces the
 * files under it (the built files are named after their content, so most disappear).
 * The daemon keeps serving, but its web UI is read from disk at each request (the new
 * pages against the old API) and what it loads late is gone (agent-setup-loader.ts):
 * `coffer status` and `coffer doctor` say so, with the restart that ends it. One stat
 * per question; a file that could not be read at start is never called replaced.
 */
export function codeStampOf(path: string, stat: Stat = statSync): CodeStamp {
  const atStart = identity(stat, path);
  return {
    path,
    replaced: () => atStart !== undefined && identity(stat, path) !== atStart,
  };
}
