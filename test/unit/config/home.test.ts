import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cofferPaths, resolveHome } from '../../../src/config/home.js';

describe('resolveHome', () => {
  it('defaults to ~/.coffer', () => {
    expect(resolveHome({})).toBe(join(homedir(), '.coffer'));
    expect(resolveHome({ COFFER_HOME: '' })).toBe(join(homedir(), '.coffer'));
  });

  it('makes a relative COFFER_HOME absolute from the current directory', () => {
    // The daemon that discovery spawns runs in the user's home: a relative path passed
    // on as is would name another folder there.
    expect(resolveHome({ COFFER_HOME: 'state/coffer' })).toBe(resolve('state/coffer'));
    expect(cofferPaths(resolveHome({ COFFER_HOME: 'h' })).daemonFile).toBe(
      join(process.cwd(), 'h', 'daemon.json'),
    );
  });

  it('reads a leading ~ as the home folder, as a shell would (agent configs have none)', () => {
    expect(resolveHome({ COFFER_HOME: '~/.coffer-work' })).toBe(join(homedir(), '.coffer-work'));
    expect(resolveHome({ COFFER_HOME: '~' })).toBe(homedir());
    expect(resolveHome({ COFFER_HOME: '~other/x' })).toBe(resolve('~other/x'));
  });

  it('keeps an absolute COFFER_HOME', () => {
    expect(resolveHome({ COFFER_HOME: '/var/tmp/coffer home' })).toBe('/var/tmp/coffer home');
  });
});
