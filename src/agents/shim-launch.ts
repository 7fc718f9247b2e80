import { realpathSync } from 'node:fs';
import { resolveHome } from '../config/home.js';
import type { ShimLaunch } from './types.js';

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * How an agent starts `coffer shim`: absolute paths to this Node and to `binaryPath`
 * (bin/coffer.js), because GUI apps (Claude Desktop, Cursor) start servers without the
 * user's shell PATH. COFFER_HOME is passed on only when it is set, so a default install
 * keeps the default home. The CLI and the daemon (for the UI) write the same entry.
 */
export function shimLaunch(env: NodeJS.ProcessEnv, binaryPath: string): ShimLaunch {
  const home = env['COFFER_HOME'];
  return {
    command: process.execPath,
    args: [realPath(binaryPath), 'shim'],
    ...(home === undefined || home === '' ? {} : { env: { COFFER_HOME: resolveHome(env) } }),
  };
}
