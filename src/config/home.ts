import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where Coffer keeps its state. `COFFER_HOME` overrides `~/.coffer`; every test uses
 * its own temporary home so runs never see each other or the user's real one.
 */
export interface CofferPaths {
  readonly home: string;
  readonly daemonFile: string;
  readonly lockFile: string;
  readonly database: string;
  readonly logsDir: string;
  readonly daemonLog: string;
  readonly secretsFile: string;
  /** What `coffer config export` would print, kept current by the daemon to restore from. */
  readonly configSnapshot: string;
  /** Every tool pin (docs/SECURITY.md), kept beside it for the same restore. */
  readonly pinSnapshot: string;
  /** What each server said about its use when last connected (gateway/server-instructions.ts). */
  readonly serverInstructions: string;
}

/**
 * An absolute path: a relative COFFER_HOME is taken from the current directory here, once,
 * because the daemon discovery spawns runs elsewhere (its cwd is the user's home). A
 * leading `~` is the user's home: agent config files pass env values without a shell.
 */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['COFFER_HOME'];
  if (override === undefined || override === '') return join(homedir(), '.coffer');
  if (override === '~' || override.startsWith('~/')) return join(homedir(), override.slice(1));
  return resolve(override);
}

export function cofferPaths(home: string = resolveHome()): CofferPaths {
  const logsDir = join(home, 'logs');
  return {
    home,
    daemonFile: join(home, 'daemon.json'),
    lockFile: join(home, 'daemon.lock'),
    database: join(home, 'coffer.db'),
    logsDir,
    daemonLog: join(logsDir, 'coffer.log'),
    secretsFile: join(home, 'secrets.json'),
    configSnapshot: join(home, 'config-snapshot.json'),
    pinSnapshot: join(home, 'tool-pins-snapshot.json'),
    serverInstructions: join(home, 'server-instructions.json'),
  };
}

/** `logs/upstream-<name>.log`: server names are already safe as file names. */
export function upstreamLogPath(paths: CofferPaths, server: string): string {
  return join(paths.logsDir, `upstream-${server}.log`);
}
