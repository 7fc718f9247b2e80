import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/output.js';
import { createCliHarness, type CliHarness } from './cli-harness.js';

/**
 * A local server that cannot start is the commonest set-up mistake: a typo in the command,
 * a PATH the daemon does not have, a missing API key. `coffer mcp test` (and every call)
 * says which, from the process's own exit and last stderr line, instead of "closed the
 * connection".
 */
let cli: CliHarness;
beforeAll(() => {
  cli = createCliHarness();
});
afterAll(async () => {
  await cli.close();
});

async function addAndTest(name: string, command: string[]): Promise<string> {
  const added = await cli.run('mcp', 'add', name, '--', ...command);
  expect(added.code, added.stderr).toBe(0);
  const tested = await cli.run('mcp', 'test', name);
  expect(tested.code).toBe(ExitCode.UNAVAILABLE);
  return tested.stderr;
}

describe('a server that cannot start', () => {
  it('names a command that does not exist', async () => {
    const said = await addAndTest('ghost', ['/nonexistent/coffer-test-command', '--flag']);
    expect(said).toContain(
      'Upstream "ghost" could not start: command not found: /nonexistent/coffer-test-command',
    );
  });

  it('quotes why it exited, not its stack trace', async () => {
    const script =
      "console.error('starting v1'); throw new Error('API_KEY is required: set it in the environment')";
    const said = await addAndTest('keyless', [process.execPath, '-e', script]);
    expect(said).toContain('could not start: it exited with code 1');
    expect(said).toContain('Error: API_KEY is required: set it in the environment');
    expect(said).not.toContain('Node.js v');
  });

  it('gives the exit code when it said nothing', async () => {
    const said = await addAndTest('silent', [process.execPath, '-e', 'process.exit(3)']);
    expect(said).toContain('Upstream "silent" could not start: it exited with code 3');
  });
});
