import { describe, expect, it } from 'vitest';
import {
  createSearchPath,
  loginShellPath,
  mergeSearchPaths,
  startSearchPath,
} from '../../../src/upstream/login-shell-path.js';

describe("the login shell's PATH", () => {
  it('reads PATH between markers, ignoring what rc files print around it', async () => {
    const calls: string[][] = [];
    const path = await loginShellPath({
      platform: 'darwin',
      shell: '/bin/zsh',
      run: (shell, args) => {
        calls.push([shell, ...args]);
        return Promise.resolve(
          'Welcome!\n__COFFER_PATH__/Users/me/.nvm/bin:/opt/homebrew/bin:/usr/bin__COFFER_PATH__bye',
        );
      },
    });
    expect(path).toBe('/Users/me/.nvm/bin:/opt/homebrew/bin:/usr/bin');
    expect(calls[0]?.slice(0, 2)).toEqual(['/bin/zsh', '-ilc']);
  });

  it('gives up quietly: a shell that fails, hangs past its timeout or prints nothing', async () => {
    const failing = () => Promise.reject(new Error('timed out'));
    expect(await loginShellPath({ platform: 'linux', shell: '/bin/bash', run: failing })).toBe(
      undefined,
    );
    const silent = () => Promise.resolve('no markers here');
    expect(await loginShellPath({ platform: 'linux', shell: '/bin/bash', run: silent })).toBe(
      undefined,
    );
  });

  it('is not asked on Windows or without $SHELL', async () => {
    const run = () => Promise.reject(new Error('must not run'));
    expect(await loginShellPath({ platform: 'win32', shell: 'cmd', run })).toBeUndefined();
    expect(await loginShellPath({ platform: 'linux', shell: undefined, run })).toBeUndefined();
  });

  it("puts the login shell's entries first and keeps inherited ones it lacks, once each", () => {
    expect(mergeSearchPaths('/usr/bin:/bin:/snap/bin', '/home/me/.nvm/bin:/usr/bin', 'linux')).toBe(
      '/home/me/.nvm/bin:/usr/bin:/bin:/snap/bin',
    );
    expect(mergeSearchPaths('/usr/bin', undefined, 'linux')).toBe('/usr/bin');
  });

  it('startSearchPath merges what the shell said with the environment it was given', async () => {
    const merged = await startSearchPath({ SHELL: '/bin/sh', PATH: '/usr/bin:/bin' }, 'linux', {
      run: () => Promise.resolve('__COFFER_PATH__/opt/tools:/usr/bin__COFFER_PATH__'),
    });
    expect(merged).toBe('/opt/tools:/usr/bin:/bin');
  });

  it('really runs a POSIX shell (this machine) and bounds it', async () => {
    const merged = await startSearchPath({ SHELL: '/bin/sh', PATH: '/usr/bin:/bin' }, 'linux', {
      timeoutMs: 10_000,
    });
    expect(merged?.split(':')).toEqual(expect.arrayContaining(['/usr/bin', '/bin']));
  });
});

describe('asking the login shell only when needed', () => {
  const env = { SHELL: '/bin/zsh', PATH: '/usr/bin:/bin' };
  const onDisk = (path: string) => ['/usr/bin/node', '/Users/me/.nvm/bin/npx'].includes(path);

  function counted() {
    let calls = 0;
    const run = () => {
      calls += 1;
      return Promise.resolve('__COFFER_PATH__/Users/me/.nvm/bin:/usr/bin__COFFER_PATH__');
    };
    return { run, calls: () => calls };
  }

  it('keeps the inherited PATH for a command it finds, and for a path to a file', async () => {
    const shell = counted();
    const search = createSearchPath(env, 'darwin', { run: shell.run, isRunnable: onDisk });
    expect(await search.forCommand('node')).toBeUndefined();
    expect(await search.forCommand('/opt/server/bin/run')).toBeUndefined();
    expect(shell.calls()).toBe(0);
  });

  it('asks once, for the first command the inherited PATH lacks, and merges', async () => {
    const shell = counted();
    const search = createSearchPath(env, 'darwin', { run: shell.run, isRunnable: onDisk });
    expect(await search.forCommand('npx')).toBe('/Users/me/.nvm/bin:/usr/bin:/bin');
    expect(await search.forCommand('uvx')).toBe('/Users/me/.nvm/bin:/usr/bin:/bin');
    expect(await search.merged()).toBe('/Users/me/.nvm/bin:/usr/bin:/bin');
    expect(shell.calls()).toBe(1);
  });

  it('keeps the inherited PATH when the shell has nothing to add', async () => {
    const search = createSearchPath(env, 'linux', {
      run: () => Promise.reject(new Error('timed out')),
      isRunnable: () => false,
    });
    expect(await search.forCommand('npx')).toBeUndefined();
  });
});
