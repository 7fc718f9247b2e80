import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCliContext } from '../../../src/cli/cli-context.js';
import { runCli } from '../../../src/cli/main.js';
import {
  CliExit,
  ExitCode,
  exitCodeByErrorCode,
  exitCodeFor,
  formatError,
  jsonError,
} from '../../../src/cli/output.js';
import { formatUptime } from '../../../src/cli/commands/daemon-commands.js';
import { CofferError, errorCodes } from '../../../src/domain/errors.js';

/** The CLI in-process, with buffers for stdout/stderr and a temporary home. */
const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

async function cli(args: string[]) {
  const home = mkdtempSync(join(tmpdir(), 'coffer-cli-'));
  homes.push(home);
  let stdout = '';
  let stderr = '';
  const context = createCliContext({
    env: { COFFER_HOME: home },
    stdout: { write: (text) => void (stdout += text), isTTY: false },
    stderr: { write: (text) => void (stderr += text), isTTY: false },
  });
  const code = await runCli(args, context);
  return { code, stdout, stderr, home };
}

describe('exit codes', () => {
  it('maps every error code', () => {
    for (const code of errorCodes) expect(exitCodeByErrorCode[code]).toBeGreaterThan(0);
    expect(exitCodeFor(new CofferError('INVALID_INPUT', 'x'))).toBe(2);
    expect(exitCodeFor(new CofferError('SERVER_NOT_FOUND', 'x'))).toBe(3);
    expect(exitCodeFor(new CofferError('SERVER_EXISTS', 'x'))).toBe(4);
    expect(exitCodeFor(new CofferError('DAEMON_UNAVAILABLE', 'x'))).toBe(5);
    expect(exitCodeFor(new CofferError('PORT_RANGE_EXHAUSTED', 'x'))).toBe(5);
    expect(exitCodeFor(new CofferError('UNAUTHORIZED', 'x'))).toBe(6);
    expect(exitCodeFor(new Error('boom'))).toBe(ExitCode.GENERIC);
    expect(exitCodeFor(new CliExit(7))).toBe(7);
  });

  it('prints one line: coffer: <message> (<hint>)', () => {
    expect(
      formatError(
        new CofferError('SERVER_NOT_FOUND', 'No server "x"', { hint: 'see `coffer mcp list`' }),
        {},
      ),
    ).toBe('coffer: No server "x" (see `coffer mcp list`)');
    expect(formatError(new Error('/secret/path'), {})).toBe(
      'coffer: internal error (rerun with COFFER_DEBUG=1 for details)',
    );
    expect(formatError(new Error('/secret/path'), { COFFER_DEBUG: '1' })).toContain('/secret/path');
  });
});

describe('coffer CLI (in-process)', () => {
  it('--version prints the package version', async () => {
    const result = await cli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('--help lists the daemon commands', async () => {
    const result = await cli(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['start', 'stop', 'status', 'daemon']) {
      expect(result.stdout).toContain(command);
    }
  });

  it('an unknown command or option is a usage error (exit 2)', async () => {
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^coffer: unknown command 'frobnicate'/);
    const option = await cli(['status', '--bogus']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/unknown option '--bogus'/);
  });

  it('status without a daemon says so and exits 5', async () => {
    const human = await cli(['status']);
    expect(human.code).toBe(5);
    expect(human.stdout).toBe('Coffer daemon: not running\n');
    const json = await cli(['status', '--json']);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout)).toEqual({ running: false, reason: 'not running' });
  });

  it('stop without a daemon is not an error', async () => {
    const result = await cli(['stop']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('not running');
  });

  it('rejects a bad --timeout', async () => {
    const result = await cli(['stop', '--timeout', 'soon']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--timeout');
  });

  it('formats uptimes', () => {
    expect(formatUptime(0)).toBe('0s');
    expect(formatUptime(65)).toBe('1m 5s');
    expect(formatUptime(3 * 3600 + 120)).toBe('3h 2m');
    expect(formatUptime(2 * 86_400 + 3600)).toBe('2d 1h');
  });
});

describe('errors of a --json command', () => {
  it('are a JSON document on stdout too, and still a line on stderr', async () => {
    const run = await cli(['mcp', 'add-json', 'j2', '{bad', '--json']);
    expect(run.code).toBe(ExitCode.USAGE);
    expect(run.stderr).toMatch(/^coffer: /);
    const { error } = JSON.parse(run.stdout) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ code: 'INVALID_INPUT', exit_code: ExitCode.USAGE });
    expect(error['message']).toEqual(expect.stringContaining('JSON'));
  });

  it('are text only without --json, or when --json belongs to a server command after --', async () => {
    expect((await cli(['mcp', 'add-json', 'j2', '{bad'])).stdout).toBe('');
    const afterDashes = await cli(['mcp', 'add', 'BAD NAME', '--', 'node', 'x.js', '--json']);
    expect(afterDashes.code).not.toBe(ExitCode.OK);
    expect(afterDashes.stdout).toBe('');
  });

  it('say no more than the text line of an unknown error', () => {
    const text = jsonError(new Error('/secret/path'));
    expect(text).not.toContain('/secret/path');
    expect(JSON.parse(text)).toEqual({
      error: { code: 'INTERNAL', message: expect.any(String) as unknown, exit_code: 1 },
    });
  });
});
