import { describe, expect, it } from 'vitest';
import { findCommand } from '../../../src/config/command-lookup.js';
import { escapeArgument, launchFor } from '../../../src/upstream/process-launch.js';

/** A fake Windows disk: these files exist, nothing else does. */
function windowsDisk(...files: string[]) {
  const set = new Set(files.map((file) => file.toLowerCase()));
  return (path: string) => set.has(path.toLowerCase());
}

const windows = {
  platform: 'win32',
  searchPath: 'C:\\Windows\\system32;"C:\\Program Files\\nodejs"',
  pathExt: '.COM;.EXE;.BAT;.CMD',
  comSpec: 'C:\\Windows\\system32\\cmd.exe',
  isRunnable: windowsDisk(
    'C:\\Program Files\\nodejs\\npx.cmd',
    'C:\\Program Files\\nodejs\\node.exe',
    'C:\\tools\\node_modules\\.bin\\mcp-thing.cmd',
  ),
};

describe('finding a command like a spawn would', () => {
  it('finds npx as npx.cmd on a Windows PATH with PATHEXT, quoted entries included', () => {
    expect(findCommand('npx', windows)).toBe('C:\\Program Files\\nodejs\\npx.cmd');
    expect(findCommand('node', windows)).toBe('C:\\Program Files\\nodejs\\node.exe');
    expect(findCommand('NPX.CMD', windows)).toBe('C:\\Program Files\\nodejs\\NPX.CMD');
    expect(findCommand('uvx', windows)).toBeUndefined();
  });

  it('takes a command with a directory as is, relative to the cwd', () => {
    const posix = {
      platform: 'linux',
      searchPath: '/usr/bin',
      cwd: '/home/me',
      isRunnable: (path: string) => path === '/home/me/bin/server',
    };
    expect(findCommand('./bin/server', posix)).toBe('/home/me/bin/server');
    expect(findCommand('server', posix)).toBeUndefined();
    expect(findCommand('', posix)).toBeUndefined();
  });

  it('searches every PATH entry in order on Unix', () => {
    const options = {
      platform: 'darwin',
      searchPath: '/usr/bin::/opt/homebrew/bin:/Users/me/.nvm/bin',
      isRunnable: (path: string) => path.endsWith('/npx') && !path.startsWith('/usr'),
    };
    expect(findCommand('npx', options)).toBe('/opt/homebrew/bin/npx');
    expect(findCommand('npx', { ...options, searchPath: undefined })).toBeUndefined();
  });
});

describe('launching on Windows', () => {
  it('runs a .cmd shim through cmd.exe /d /s /c with every part quoted', () => {
    const launch = launchFor('npx', ['-y', '@scope/server', 'C:\\my notes'], windows);
    expect(launch).toEqual({
      command: 'C:\\Windows\\system32\\cmd.exe',
      args: [
        '/d',
        '/s',
        '/c',
        '"C:\\Program^ Files\\nodejs\\npx.cmd ^"-y^" ^"@scope/server^" ^"C:\\my^ notes^""',
      ],
      windowsVerbatimArguments: true,
    });
  });

  it('escapes cmd specials so an argument cannot run a second command', () => {
    const launch = launchFor('npx', ['a & calc', '50%', 'say "hi"'], windows);
    const line = launch.args[3] ?? '';
    expect(line).toContain('^"a^ ^&^ calc^"');
    expect(line).toContain('^"50^%^"');
    expect(line).toContain('^"say^ \\^"hi\\^"^"');
  });

  it("escapes twice for npm's node_modules/.bin shims, which pass arguments through cmd again", () => {
    const launch = launchFor('C:\\tools\\node_modules\\.bin\\mcp-thing.cmd', ['a&b'], windows);
    expect(launch.args[3]).toBe('"C:\\tools\\node_modules\\.bin\\mcp-thing.cmd ^^^"a^^^&b^^^""');
  });

  it('spawns .exe files and unknown commands directly', () => {
    expect(launchFor('node', ['server.js'], windows)).toEqual({
      command: 'node',
      args: ['server.js'],
      windowsVerbatimArguments: false,
    });
    expect(launchFor('uvx', ['thing'], windows).command).toBe('uvx');
  });

  it('changes nothing on Linux or macOS', () => {
    const launch = launchFor('npx', ['-y', 'a & b'], { platform: 'linux', searchPath: '/usr/bin' });
    expect(launch).toEqual({
      command: 'npx',
      args: ['-y', 'a & b'],
      windowsVerbatimArguments: false,
    });
  });

  it('doubles backslashes only before a quote or at the end', () => {
    expect(escapeArgument('C:\\dir\\')).toBe('^"C:\\dir\\\\^"');
    expect(escapeArgument('a\\b')).toBe('^"a\\b^"');
  });
});
