import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listBackups, readBackup } from '../../../src/agents/backups.js';
import { runCliWith } from '../../support/cli-in-process.js';

let root: string;
let home: string;
let file: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'coffer-unit-restore-'));
  home = join(root, 'home');
  file = join(home, '.cursor', 'mcp.json');
  mkdirSync(join(home, '.cursor'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** `coffer agents …` in-process on the fake home; these commands never ask the daemon. */
const coffer = (...args: string[]) =>
  runCliWith(
    ['agents', ...args],
    {},
    {
      home: join(root, 'coffer'),
      env: { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, '.config') },
    },
  );

describe('coffer agents restore --dry-run', () => {
  it('says what becomes of the changes made since the backup, as the restore then does', async () => {
    const original = '{ "mcpServers": { "docs": { "command": "docs-mcp" } } }\n';
    writeFileSync(file, original);
    expect((await coffer('install', 'cursor')).code).toBe(0);
    const edited = readFileSync(file, 'utf8').replace(
      '"docs"',
      '"notes": { "command": "n" }, "docs"',
    );
    writeFileSync(file, edited);
    const [taken] = listBackups(join(root, 'coffer'));

    const dry = await coffer('restore', 'cursor', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      [
        `Cursor: backup ${taken?.id}, taken before install`,
        `  would restore ${file}`,
        `  the file as it is now, with every change made to it since that backup (by Coffer or by anyone), would be kept as a new backup: coffer agents restore cursor brings them back`,
        '  the install that backup was taken before, and any later one, would count as undone: a later uninstall puts back nothing their --replace removed',
        'Dry run: nothing was changed.',
        '',
      ].join('\n'),
    );
    expect(readFileSync(file, 'utf8')).toBe(edited);

    const run = await coffer('restore', 'cursor');
    expect(readFileSync(file, 'utf8')).toBe(original);
    const [kept] = listBackups(join(root, 'coffer'));
    expect(readBackup(join(root, 'coffer'), kept!.id).text).toBe(edited);
    expect(run.stdout).toContain(
      `The file as it was, with the changes since backup ${taken?.id}, is kept as backup ${kept?.id}: coffer agents restore cursor brings them back.`,
    );
  });

  it('says nothing is kept when there is no file now', async () => {
    writeFileSync(file, '{ "mcpServers": {} }\n');
    expect((await coffer('install', 'cursor')).code).toBe(0);
    rmSync(file);
    const dry = await coffer('restore', 'cursor', '--dry-run');
    expect(dry.stdout).toContain('  there is no file now, so there is nothing to keep');
  });
});
