import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/cli/output.js';
import { runCoffer } from '../secrets/run-coffer.js';
import { createCliHarness, oneErrorLine, type CliHarness } from './cli-harness.js';

/**
 * A configuration kept in dotfiles: exported on one machine (home), imported on another
 * (a second home), where the secrets' values are not. Importing twice changes nothing.
 */
let source: CliHarness;
let target: CliHarness;
let scratch: string;
beforeAll(() => {
  // Never the user's keychain: each home keeps its secrets in its own file.
  source = createCliHarness({ COFFER_KEYCHAIN: 'file' });
  target = createCliHarness({ COFFER_KEYCHAIN: 'file' });
  scratch = mkdtempSync(join(tmpdir(), 'coffer-e2e-config-'));
});
afterAll(async () => {
  await Promise.all([source.close(), target.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

describe('coffer config export / import', () => {
  const file = () => join(scratch, 'coffer.json');

  it('exports servers, switches, policies and secret names, never secret values', async () => {
    const added = await source.run(
      'mcp',
      'add',
      'files',
      '--env',
      'MODE=ro',
      '--',
      'npx',
      '-y',
      'some-server',
    );
    expect(added.code, added.stderr).toBe(0);
    const secret = await runCoffer(
      source.env,
      ['mcp', 'add', 'github', '--secret-env', 'GITHUB_TOKEN', '--from-stdin', '--', 'gh-mcp'],
      'top-secret-value\n',
    );
    expect(secret.code, secret.stderr).toBe(0);
    expect((await source.run('mcp', 'disable', 'files', '--tool', 'write_file')).code).toBe(0);
    for (const policy of [
      ['files', '--destructive', 'deny'],
      ['files', '--tool', 'delete_file', 'allow'],
      ['github', '--tool', 'merge_pr', 'ask'],
    ]) {
      const set = await source.run('mcp', 'policy', ...policy);
      expect(set.code, set.stderr).toBe(0);
    }
    const exported = await source.run('config', 'export', '--file', file());
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(file(), 'utf8');
    expect(text).not.toContain('top-secret-value');
    expect(JSON.parse(text)).toMatchObject({
      coffer_config: 1,
      servers: {
        files: {
          command: 'npx',
          args: ['-y', 'some-server'],
          env: { MODE: 'ro' },
          capabilities: { tool: { write_file: false } },
          policies: { destructive: 'deny', tools: { delete_file: 'allow' } },
        },
        github: {
          command: 'gh-mcp',
          secret_env: ['GITHUB_TOKEN'],
          policies: { destructive: 'ask', tools: { merge_pr: 'ask' } },
        },
      },
    });
  });

  it('writes an export whole, keeps the mode of the file it replaces, and says why it cannot', async () => {
    const kept = join(scratch, 'private.json');
    writeFileSync(kept, 'old', { mode: 0o600 });
    chmodSync(kept, 0o600);
    expect((await source.run('config', 'export', '--file', kept)).code).toBe(0);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(kept, 'utf8'))).toMatchObject({ coffer_config: 1 });
    for (const [path, why] of [
      [join(scratch, 'no-such-folder', 'coffer.json'), 'its folder does not exist'],
      [scratch, 'it is a folder'],
    ] as const) {
      const failed = await source.run('config', 'export', '--file', path);
      expect(failed.code).toBe(ExitCode.USAGE);
      expect(oneErrorLine(failed)).toBe(
        `coffer: Cannot write ${path}: ${why} (give a path in a folder you can write to, or leave --file out to print it)`,
      );
    }
    expect(readdirSync(scratch).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('says when a server keeps a credential in its URL, which the export then holds', async () => {
    const url = 'https://mcp.example.com/mcp?api_key=9f8e7d6c5b4a39281706';
    expect((await source.run('mcp', 'add', 'keyed', '--url', url)).code).toBe(0);
    const exported = await source.run('config', 'export');
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(url);
    expect(exported.stderr).toContain(
      'coffer: warning: the URL of keyed holds a credential (its query parameter "api_key"), and the export holds it too: keep the file private',
    );
    expect((await source.run('mcp', 'remove', 'keyed')).code).toBe(0);
    expect((await source.run('config', 'export')).stderr).not.toContain('warning');
  });

  it('shows the changes in a dry run and changes nothing', async () => {
    const dry = await target.run('config', 'import', file(), '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+ files: added');
    expect(dry.stdout).toContain('tool write_file: disabled');
    expect(dry.stdout).toContain('policy destructive tools: deny (was ask)');
    expect(dry.stdout).toContain('policy tool delete_file: allow (added)');
    expect(dry.stdout).toContain('policy tool merge_pr: ask (added)');
    expect(dry.stdout).toContain('coffer secrets set github --env GITHUB_TOKEN');
    expect(dry.stdout).toContain('Dry run: nothing was changed.');
    // `gh-mcp` is on no PATH: the other machine is told before it relies on that server.
    expect(dry.stderr).toBe(
      'coffer: warning: github: command not found: gh-mcp (not on the PATH Coffer searches)\n' +
        '  fix: install gh-mcp, or give the server its full path (`coffer doctor` says how)\n',
    );
    const listed = await target.run('mcp', 'list', '--json');
    expect(JSON.parse(listed.stdout)).toEqual({ servers: [] });
  });

  it('imports, and a second import changes nothing', async () => {
    const first = await target.run('config', 'import', file());
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Imported.');
    expect(first.stderr).toContain('github: command not found: gh-mcp');
    expect(first.stderr).not.toContain('files:');
    const again = await target.run('config', 'import', file(), '--json');
    expect(again.stderr).toBe('');
    const plan = JSON.parse(again.stdout) as { changes: { action: string }[] };
    expect(plan.changes.map((change) => change.action)).toEqual(['unchanged', 'unchanged']);
    const reexported = await target.run('config', 'export');
    expect(JSON.parse(reexported.stdout)).toEqual(JSON.parse(readFileSync(file(), 'utf8')));
  });

  it('sets back a policy changed here, and a file without policies leaves them alone', async () => {
    expect((await target.run('mcp', 'policy', 'files', '--tool', 'delete_file', 'deny')).code).toBe(
      0,
    );
    const dry = await target.run('config', 'import', file(), '--dry-run');
    expect(dry.stdout).toContain('~ files: policies changed');
    expect(dry.stdout).toContain('policy tool delete_file: allow (was deny)');
    expect((await target.run('config', 'import', file())).code).toBe(0);

    // A file written before policies existed: the same servers, no `policies` keys.
    const old = join(scratch, 'old.json');
    const current = JSON.parse(readFileSync(file(), 'utf8')) as {
      servers: Record<string, { policies?: unknown }>;
    };
    for (const entry of Object.values(current.servers)) delete entry.policies;
    writeFileSync(old, JSON.stringify(current));
    const imported = await target.run('config', 'import', old, '--json');
    expect(imported.code, imported.stderr).toBe(0);
    const plan = JSON.parse(imported.stdout) as { changes: { action: string }[] };
    expect(plan.changes.map((change) => change.action)).toEqual(['unchanged', 'unchanged']);
    const exported = JSON.parse((await target.run('config', 'export')).stdout) as {
      servers: Record<string, { policies?: unknown }>;
    };
    expect(exported.servers['files']?.policies).toEqual({
      destructive: 'deny',
      tools: { delete_file: 'allow' },
    });
  });

  it('refuses a bad field by its path, and a file that is not JSON', async () => {
    const bad = join(scratch, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ coffer_config: 1, servers: { web: { transport: 'http', url: 'ftp://x' } } }),
    );
    const refused = await target.run('config', 'import', bad);
    expect(refused.code).toBe(ExitCode.USAGE);
    expect(oneErrorLine(refused)).toContain(
      'Invalid config: servers.web.url: url must be an http:// or https:// URL',
    );
    writeFileSync(
      bad,
      JSON.stringify({
        coffer_config: 1,
        servers: { files: { transport: 'stdio', command: 'x', policies: { destructive: 'no' } } },
      }),
    );
    const badPolicy = await target.run('config', 'import', bad);
    expect(badPolicy.code).toBe(ExitCode.USAGE);
    expect(oneErrorLine(badPolicy)).toContain(
      'Invalid config: servers.files.policies.destructive: a policy must be one of allow, ask, deny',
    );
    writeFileSync(bad, '{ "coffer_config": 1, ');
    const garbled = await target.run('config', 'import', bad);
    expect(garbled.code).toBe(ExitCode.USAGE);
    expect(oneErrorLine(garbled)).toContain(': The file is not valid JSON (at position');
    expect(oneErrorLine(garbled)).not.toContain('request body');
  });

  it('refuses a file with a credential as a plain value before it writes any server, dry run or not', async () => {
    const bad = join(scratch, 'partial.json');
    const bearer = 'Bearer abcdef0123456789abcdef';
    writeFileSync(
      bad,
      JSON.stringify({
        coffer_config: 1,
        servers: {
          aaa: { transport: 'stdio', command: 'node', args: ['x.js'] },
          bbb: {
            transport: 'http',
            url: 'http://127.0.0.1:9/mcp',
            headers: { Authorization: bearer },
          },
        },
      }),
    );
    for (const dryRun of [['--dry-run'], []]) {
      const refused = await target.run('config', 'import', bad, ...dryRun);
      expect(refused.code, refused.stdout).toBe(ExitCode.USAGE);
      const line = oneErrorLine(refused);
      expect(line).toContain('servers.bbb: headers.Authorization: holds a credential');
      expect(line).toContain('coffer secrets set bbb --header Authorization');
      expect(line).not.toContain(bearer);
    }
    const shown = await target.run('mcp', 'show', 'aaa');
    expect(shown.code).toBe(ExitCode.NOT_FOUND);
  });
});
