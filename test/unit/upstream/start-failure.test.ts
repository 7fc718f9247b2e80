import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { StartFailure } from '../../../src/upstream/start-failure.js';

function ended(stderr: string, code: number | null, signal: NodeJS.Signals | null = null) {
  const failure = new StartFailure();
  failure.stderr(Buffer.from(stderr));
  failure.exited(code, signal);
  return failure.describe();
}

describe('StartFailure', () => {
  it('knows nothing while the process runs', () => {
    const failure = new StartFailure();
    failure.stderr(Buffer.from('Error: not yet\n'));
    expect(failure.describe()).toBeUndefined();
  });

  it("picks a Node error line over the stack and the runtime's banner", () => {
    const node = [
      '[eval]:1',
      "throw new Error('x')",
      '^',
      '',
      'Error: GITHUB_TOKEN is missing',
      '    at [eval]:1:7',
      '    at runScriptInThisContext (node:internal/vm:209:10)',
      '',
      'Node.js v20.20.2',
    ].join('\n');
    expect(ended(node, 1)).toBe('it exited with code 1: Error: GITHUB_TOKEN is missing');
  });

  it("picks a Python traceback's last line", () => {
    const python = [
      'Traceback (most recent call last):',
      '  File "server.py", line 3, in <module>',
      '    import mcp',
      "ModuleNotFoundError: No module named 'mcp'",
    ].join('\n');
    expect(ended(python, 1)).toBe(
      "it exited with code 1: ModuleNotFoundError: No module named 'mcp'",
    );
  });

  it('falls back to the last line, cut to a readable length, and names a signal', () => {
    expect(ended('listening soon\nbye\n', 0)).toBe('it exited with code 0: bye');
    expect(ended(`${'x'.repeat(1000)}\n`, 2)).toMatch(/^it exited with code 2: x{300}…$/);
    expect(ended('', null, 'SIGKILL')).toBe('it was ended by SIGKILL');
  });

  it('keeps only the tail of a long stderr, and skips its own notes', () => {
    const failure = new StartFailure();
    failure.stderr(Buffer.from(`Error: early\n${'noise\n'.repeat(2000)}`));
    failure.stderr(Buffer.from('[coffer] ignored a line on stdout\n'));
    failure.exited(1, null);
    expect(failure.describe()).toBe('it exited with code 1: noise');
  });

  it('turns a failed spawn into a sentence about the command', () => {
    const failure = new StartFailure();
    const error = failure.spawnFailed(
      'npx',
      Object.assign(new Error('spawn npx ENOENT'), { code: 'ENOENT' }),
    );
    expect(error.message).toBe('command not found: npx');
    expect(failure.describe()).toBe('command not found: npx');
    const denied = new StartFailure();
    denied.spawnFailed('./server', Object.assign(new Error('x'), { code: 'EACCES' }));
    expect(denied.describe()).toBe('command is not executable: ./server');
  });

  it('blames a working directory that is not there, where Node says ENOENT as for the command', () => {
    const enoent = () => Object.assign(new Error('spawn node ENOENT'), { code: 'ENOENT' });
    const failure = new StartFailure();
    failure.spawnFailed('node', enoent(), '/no/such/folder');
    expect(failure.describe()).toBe('its working directory does not exist: /no/such/folder');
    expect(failure.commandNotFound).toBe(false);
    // A folder that is there leaves the command to blame.
    const missing = new StartFailure();
    missing.spawnFailed('uvx', enoent(), tmpdir());
    expect(missing.describe()).toBe('command not found: uvx');
    expect(missing.commandNotFound).toBe(true);
  });

  it('keeps the first stdout line that was not JSON-RPC, cut to a readable length', () => {
    const failure = new StartFailure();
    expect(failure.noise).toBeUndefined();
    failure.stdoutNoise('Server ready on stdio!');
    failure.stdoutNoise('second line');
    expect(failure.noise).toBe('Server ready on stdio!');
    const long = new StartFailure();
    long.stdoutNoise('y'.repeat(1000));
    expect(long.noise).toMatch(/^y{300}…$/);
  });
});
