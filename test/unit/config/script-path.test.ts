import { describe, expect, it } from 'vitest';
import { scriptPathOf } from '../../../src/config/script-path.js';

describe('scriptPathOf: the script an interpreter is told to run', () => {
  it('reads the first argument of an interpreter as a path, relative ones in the server folder', () => {
    expect(scriptPathOf('node', ['/srv/x/index.js'], undefined)).toBe('/srv/x/index.js');
    expect(scriptPathOf('/usr/bin/python3.12', ['server.py', '--port', '1'], '/srv')).toBe(
      '/srv/server.py',
    );
    expect(scriptPathOf('C:\\Program Files\\nodejs\\node.exe', ['/a/b'], undefined)).toBe('/a/b');
    expect(scriptPathOf('bun', ['./src/main.ts'], '/srv/y')).toBe('/srv/y/src/main.ts');
  });

  it('says nothing where the first argument may not be a file', () => {
    const none: [string, string[], string | undefined][] = [
      ['npx', ['-y', '/abs/pkg.js'], undefined], // not an interpreter
      ['node', ['-e', 'x'], undefined], // a flag first
      ['python3', ['-m', 'server'], '/srv'],
      ['node', ['server'], '/srv'], // neither a slash nor a script's extension
      ['node', ['dist/index.js'], undefined], // relative, and no folder known
      ['node', [], undefined],
      ['node', [''], '/srv'],
    ];
    for (const [command, args, cwd] of none)
      expect(scriptPathOf(command, args, cwd)).toBeUndefined();
  });
});
