import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Unix socket paths are limited to ~104-108 bytes by the OS (sun_path); past this many,
 * the socket moves to the temporary directory under a name derived from the home.
 */
export const MAX_SOCKET_PATH_BYTES = 100;

export interface SocketPathOptions {
  readonly platform?: NodeJS.Platform;
  readonly tmpdir?: string;
}

/**
 * Where the daemon listens for the shim's persistent channel (docs/SHIM-SOCKET contract):
 * `<home>/coffer.sock`; a path too long for the OS becomes
 * `<tmpdir>/coffer-<16 hex of sha256(home)>.sock`; on Windows the named pipe
 * `\\.\pipe\coffer-<16 hex>`. One function, so the daemon and the shim agree.
 */
export function daemonSocketPath(home: string, options: SocketPathOptions = {}): string {
  const absolute = resolve(home);
  const tag = createHash('sha256').update(absolute, 'utf8').digest('hex').slice(0, 16);
  if ((options.platform ?? process.platform) === 'win32') return `\\\\.\\pipe\\coffer-${tag}`;
  const inHome = join(absolute, 'coffer.sock');
  if (Buffer.byteLength(inHome, 'utf8') <= MAX_SOCKET_PATH_BYTES) return inHome;
  return join(options.tmpdir ?? tmpdir(), `coffer-${tag}.sock`);
}
