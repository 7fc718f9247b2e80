import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cofferBin } from '../../support/running-daemon.js';

const home = mkdtempSync(join(tmpdir(), 'coffer-e2e-stdout-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Runs `coffer <args>` with nobody reading its stdout: `coffer … | head -c 0`. */
async function withoutReader(args: readonly string[]) {
  const child = spawn(process.execPath, [cofferBin, ...args], {
    env: { ...process.env, COFFER_HOME: home },
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  return { code, signal, stderr };
}

/** A CLI whose reader went away (`coffer … | head`) stops quietly, as a Unix tool does. */
describe('coffer with nobody reading its output', () => {
  it.each([[['--help']], [['mcp', 'add', '--help']], [['--version']]])(
    'coffer %j exits 0 without a stack trace',
    async (args) => {
      const run = await withoutReader(args);
      expect(run.stderr).not.toContain('EPIPE');
      expect([run.code, run.signal]).toEqual([0, null]);
    },
  );
});
