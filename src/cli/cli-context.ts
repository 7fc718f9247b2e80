import { cofferPaths, resolveHome, type CofferPaths } from '../config/home.js';
import { connectApi, type ApiClient } from './api-client.js';
import type { OutputStream } from './output.js';

export type { ApiClient } from './api-client.js';
export type { OutputStream } from './output.js';

/**
 * What every command gets: where Coffer lives, how to reach the daemon, where to
 * write. Commands never touch process.stdout / process.env directly, so tests can run
 * them in-process with buffers.
 */
export interface CliContext {
  readonly paths: CofferPaths;
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** Connects to the daemon's API, starting the daemon unless `spawn: false`. */
  api(options?: { spawn?: boolean }): Promise<ApiClient>;
}

function processStream(stream: NodeJS.WriteStream): OutputStream {
  return {
    write: (text) => {
      stream.write(text);
    },
    get isTTY() {
      return stream.isTTY === true;
    },
  };
}

export interface CliContextOverrides {
  readonly env?: NodeJS.ProcessEnv;
  readonly stdout?: OutputStream;
  readonly stderr?: OutputStream;
}

export function createCliContext(overrides: CliContextOverrides = {}): CliContext {
  const env = overrides.env ?? process.env;
  const paths = cofferPaths(resolveHome(env));
  return {
    paths,
    env,
    stdout: overrides.stdout ?? processStream(process.stdout),
    stderr: overrides.stderr ?? processStream(process.stderr),
    api: (options = {}) =>
      connectApi({ paths, env, ...(options.spawn === undefined ? {} : { spawn: options.spawn }) }),
  };
}
