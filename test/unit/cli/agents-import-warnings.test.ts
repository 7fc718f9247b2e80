import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DoctorFinding } from '../../../src/domain/ports.js';
import { runCliWith } from '../../support/cli-in-process.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'coffer-unit-import-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const finding = (code: DoctorFinding['code'], subject: string): DoctorFinding => ({
  code,
  level: 'fail',
  subject,
  message: `${code} of ${subject}`,
  fix: `fix ${subject}`,
});

/**
 * `coffer agents import cursor` in-process, on a fake home whose Cursor has two servers,
 * against a fake daemon API whose doctor report has findings for both and for others.
 */
async function importCursor(doctor: () => Promise<unknown>) {
  const home = join(root, 'home');
  mkdirSync(join(home, '.cursor'), { recursive: true });
  const servers = { typo: { command: 'npxx', args: ['x'] }, fine: { command: 'node' } };
  writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  const api = {
    daemon: { port: 18000 },
    get: (path: string) =>
      path === '/doctor?agents=no' ? doctor() : Promise.resolve({ servers: [] }),
    post: (_path: string, body: unknown) => Promise.resolve({ server: body }),
    delete: () => Promise.resolve(),
  };
  return runCliWith(['agents', 'import', 'cursor'], api, {
    home: join(root, 'coffer'),
    env: { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, '.config') },
  });
}

describe('coffer agents import warns of what would stop an imported server from starting', () => {
  it("prints the doctor's start problems of the servers it added, and no other finding", async () => {
    const run = await importCursor(() =>
      Promise.resolve({
        findings: [
          finding('COMMAND_NOT_FOUND', 'typo'),
          finding('SERVER_FAILING', 'typo'),
          finding('COMMAND_NOT_FOUND', 'elsewhere'),
          { ...finding('KEYCHAIN_FALLBACK', 'keychain'), level: 'warn' },
        ],
      }),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Imported 2 of 2');
    expect(run.stderr).toBe('coffer: warning: typo: COMMAND_NOT_FOUND of typo\n  fix: fix typo\n');
  });

  it('imports all the same when the report cannot be had', async () => {
    const run = await importCursor(() => Promise.reject(new Error('daemon gone')));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Imported 2 of 2');
  });
});
