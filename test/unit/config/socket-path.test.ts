import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { daemonSocketPath, MAX_SOCKET_PATH_BYTES } from '../../../src/config/socket-path.js';

const tag = (home: string): string =>
  createHash('sha256').update(home, 'utf8').digest('hex').slice(0, 16);

describe('daemonSocketPath', () => {
  it('is coffer.sock inside a home whose path is short enough', () => {
    expect(daemonSocketPath('/home/ada/.coffer', { platform: 'linux' })).toBe(
      '/home/ada/.coffer/coffer.sock',
    );
  });

  it('moves to the temporary directory, named after the home, when the path is too long', () => {
    const home = `/home/${'x'.repeat(MAX_SOCKET_PATH_BYTES)}`;
    expect(daemonSocketPath(home, { platform: 'darwin', tmpdir: '/tmp' })).toBe(
      `/tmp/coffer-${tag(home)}.sock`,
    );
  });

  it('is a named pipe on Windows', () => {
    expect(daemonSocketPath('/home/ada/.coffer', { platform: 'win32' })).toBe(
      `\\\\.\\pipe\\coffer-${tag('/home/ada/.coffer')}`,
    );
  });

  it('two homes never share a long-path socket', () => {
    const long = 'y'.repeat(MAX_SOCKET_PATH_BYTES);
    expect(daemonSocketPath(`/a/${long}`, { platform: 'linux' })).not.toBe(
      daemonSocketPath(`/b/${long}`, { platform: 'linux' }),
    );
  });
});
