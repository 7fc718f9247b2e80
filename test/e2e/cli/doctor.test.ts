import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorOutput } from '../../../src/cli/render/doctor-lines.js';
import type { DaemonRecord } from '../../../src/discovery/index.js';
import { ExitCode } from '../../../src/cli/output.js';
import { eventually } from '../../support/eventually.js';
import { createCliHarness, FIXTURE, type CliHarness } from './cli-harness.js';

/**
 * `coffer doctor` against a real daemon, and a command that only the user's login shell
 * finds: a fake $SHELL answers `-ilc` with a PATH holding a folder the inherited PATH
 * lacks, as nvm or Homebrew do for a daemon a GUI app started.
 */
let cli: CliHarness;
let scratch: string;
let shellBin: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'coffer-e2e-doctor-'));
  shellBin = join(scratch, 'login-bin');
  mkdirSync(shellBin);
  const server = join(shellBin, 'coffer-test-mcp-server');
  writeFileSync(server, `#!/bin/sh\nexec "${process.execPath}" "${FIXTURE}" "$@"\n`);
  chmodSync(server, 0o755);
  const shell = join(scratch, 'fake-login-shell');
  writeFileSync(
    shell,
    `#!/bin/sh\necho 'welcome banner'\nprintf '__COFFER_PATH__%s__COFFER_PATH__' '${shellBin}:/usr/bin:/bin'\n`,
  );
  chmodSync(shell, 0o755);
  const home = join(scratch, 'user-home');
  mkdirSync(join(home, '.cursor'), { recursive: true });
  // Cursor still points at a checkout that was moved away.
  writeFileSync(
    join(home, '.cursor', 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        coffer: { command: process.execPath, args: [join(scratch, 'moved', 'coffer.js'), 'shim'] },
      },
    }),
  );
  cli = createCliHarness({ SHELL: shell, HOME: home });
});
afterAll(async () => {
  await cli.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function doctorJson(): Promise<{ code: number; output: DoctorOutput }> {
  const result = await cli.run('doctor', '--json');
  return { code: result.code, output: JSON.parse(result.stdout) as DoctorOutput };
}

describe('coffer doctor', () => {
  it("starts a server whose command only the login shell's PATH has", async () => {
    expect(process.env['PATH']?.includes(shellBin)).toBe(false);
    const added = await cli.run('mcp', 'add', 'viashell', '--', 'coffer-test-mcp-server');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).not.toContain('warning');
    const tested = await cli.run('mcp', 'test', 'viashell');
    expect(tested.code, tested.stderr).toBe(0);
  });

  it('reports the set-up as JSON, and what is broken with its fix', async () => {
    const added = await cli.run('mcp', 'add', 'ghost', '--', 'coffer-no-such-command');
    // Added all the same (it may be installed later), with the warning and its fix at once.
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('Added server "ghost"');
    expect(added.stderr).toContain(
      'coffer: warning: ghost: command not found: coffer-no-such-command (not on the PATH Coffer searches)\n  fix: install coffer-no-such-command',
    );
    const { code, output } = await doctorJson();
    expect(code).toBe(ExitCode.GENERIC);
    expect(output.ok).toBe(false);
    expect(output.daemon?.pid).toEqual(expect.any(Number));
    expect(output.node_version).toBe(process.version);
    expect(output.search_path?.split(':')[0]).toBe(shellBin);
    expect(output.servers).toEqual([
      expect.objectContaining({ name: 'ghost', command_path: null }),
      expect.objectContaining({
        name: 'viashell',
        command_path: join(shellBin, 'coffer-test-mcp-server'),
      }),
    ]);
    expect(output.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'COMMAND_NOT_FOUND', subject: 'ghost', level: 'fail' }),
        expect.objectContaining({
          code: 'AGENT_SHIM_BROKEN',
          subject: 'cursor',
          fix: 'coffer agents install cursor',
        }),
      ]),
    );
    expect(output.agents).toEqual([expect.objectContaining({ id: 'cursor', shim_ok: false })]);
    // The daemon reads the same file; the CLI's own check stands for it, said once.
    const broken = output.findings.filter((finding) => finding.code === 'AGENT_SHIM_BROKEN');
    expect(broken).toHaveLength(1);
  });

  it("serves the agents' check in the API's report, and leaves it out when asked", async () => {
    const record = join(cli.env['COFFER_HOME'] ?? '', 'daemon.json');
    const { port, token } = JSON.parse(readFileSync(record, 'utf8')) as DaemonRecord;
    const get = async (query: string) => {
      const url = `http://127.0.0.1:${port}/api/v1/doctor${query}`;
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const full = await get('');
    expect(full.body['agents']).toEqual([
      expect.objectContaining({ id: 'cursor', shim_ok: false }),
    ]);
    expect(JSON.stringify(full.body['findings'])).toContain('AGENT_SHIM_BROKEN');
    const servers = await get('?agents=no');
    expect(servers.body).not.toHaveProperty('agents');
    expect(JSON.stringify(servers.body['findings'])).not.toContain('AGENT_');
    const bad = await get('?agents=maybe');
    expect(bad).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_INPUT', message: 'agents must be yes or no, not "maybe"' } },
    });
  });

  it('says the same in words', async () => {
    const result = await cli.run('doctor');
    expect(result.code).toBe(ExitCode.GENERIC);
    expect(result.stdout).toContain('ghost: idle, coffer-no-such-command → not found');
    expect(result.stdout).toContain('COMMAND_NOT_FOUND (ghost): command not found');
    expect(result.stdout).toContain('fix: coffer agents install cursor');
  });

  it('marks the broken entry in coffer agents list too', async () => {
    const listed = await cli.run('agents', 'list', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const { agents } = JSON.parse(listed.stdout) as {
      agents: { id: string; locations: { coffer_installed: boolean; coffer_problem?: string }[] }[];
    };
    const cursor = agents.find((agent) => agent.id === 'cursor');
    // The user's file; the project's (none here) has no entry to check.
    expect(cursor?.locations[0]).toMatchObject({
      coffer_installed: true,
      coffer_problem: expect.stringMatching(/^its Coffer script .*coffer\.js is not there/),
    });
    expect(cursor?.locations.filter((row) => row.coffer_problem !== undefined)).toHaveLength(1);
    const table = await cli.run('agents', 'list');
    expect(table.stdout).toMatch(/cursor\s*│\s*user\s*│\s*0\s*│\s*broken \(coffer doctor\)/);
  });

  it("names an agent entry that sends Coffer over HTTP an old daemon's token", async () => {
    const home = cli.env['HOME'] ?? '';
    const daemonFile = join(cli.env['COFFER_HOME'] ?? '', 'daemon.json');
    const { port, token } = JSON.parse(readFileSync(daemonFile, 'utf8')) as DaemonRecord;
    const url = `http://127.0.0.1:${port}/mcp`;
    const entry = (bearer: string) => ({ type: 'http', url, headers: { Authorization: bearer } });
    const mcpServers = {
      'coffer-http': entry('Bearer token-of-an-earlier-start'),
      current: entry(`Bearer ${token}`),
      expanded: entry('Bearer ${COFFER_TOKEN}'),
    };
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers }));
    const { output } = await doctorJson();
    const stale = output.findings.filter((finding) => finding.code === 'AGENT_TOKEN_STALE');
    expect(stale).toEqual([
      {
        code: 'AGENT_TOKEN_STALE',
        level: 'fail',
        subject: 'claude-code',
        message: `Claude Code (${join(home, '.claude.json')} [user]): "coffer-http" reaches Coffer over HTTP with an old token (the daemon makes a new one at each start), so Coffer refuses it`,
        fix: 'coffer agents install claude-code --replace: the shim entry reads the current token itself',
      },
    ]);
    expect(JSON.stringify(output)).not.toContain(token);
    rmSync(join(home, '.claude.json'));
  });

  it('warns of a secret an older Coffer left for a removed server, until it is deleted', async () => {
    // What `coffer mcp remove` left in the keychain before it deleted a server's secrets.
    const file = join(cli.home, 'secrets.json');
    const kept = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as { secrets: Record<string, string> }).secrets
      : {};
    const secrets = { ...kept, 'old-github/env/GITHUB_TOKEN': 'ghp_left' };
    writeFileSync(file, JSON.stringify({ version: 1, secrets }), { mode: 0o600 });
    const unused = async () =>
      (await doctorJson()).output.findings.filter((finding) => finding.code === 'SECRET_UNUSED');
    expect(await unused()).toEqual([
      {
        code: 'SECRET_UNUSED',
        level: 'warn',
        subject: 'keychain',
        message: 'the keychain keeps env GITHUB_TOKEN of old-github, a server Coffer no longer has',
        fix: 'coffer secrets remove old-github --env GITHUB_TOKEN',
      },
    ]);
    expect((await cli.run('secrets', 'remove', 'old-github', '--env', 'GITHUB_TOKEN')).code).toBe(
      0,
    );
    expect(await unused()).toEqual([]);
    expect(readFileSync(file, 'utf8')).not.toContain('ghp_left');
  });

  it('says at once that the script an interpreter is to run is not there, and in the report', async () => {
    const script = join(cli.env['COFFER_HOME'] ?? '', 'not-built', 'index.js');
    const added = await cli.run('mcp', 'add', 'unbuilt', '--', process.execPath, script);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain(
      `coffer: warning: unbuilt: the script it runs does not exist: ${script}\n  fix: build or install it there`,
    );
    const { output } = await doctorJson();
    expect(output.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'SCRIPT_NOT_FOUND', subject: 'unbuilt', level: 'fail' }),
      ]),
    );
    expect((await cli.run('mcp', 'remove', 'unbuilt')).code).toBe(0);
  });

  it('exits 0 once nothing is broken', async () => {
    expect((await cli.run('mcp', 'remove', 'ghost')).code).toBe(0);
    rmSync(join(cli.env['HOME'] ?? '', '.cursor'), { recursive: true, force: true });
    const { code, output } = await doctorJson();
    expect(output.findings.filter((finding) => finding.level === 'fail')).toEqual([]);
    expect(code).toBe(0);
  });

  it("shows 'starting' while a slow server starts, then its counts", async () => {
    // The server starts only once the test has seen it starting: no race with a busy machine.
    const go = join(cli.env['COFFER_HOME'] ?? '', 'slow-may-start');
    const slow = `const f = ${JSON.stringify(go)}; (function wait() { require('node:fs').existsSync(f) ? import(${JSON.stringify(FIXTURE)}) : setTimeout(wait, 50); })();`;
    expect((await cli.run('mcp', 'add', 'slow', '--', process.execPath, '-e', slow)).code).toBe(0);
    const listing = cli.run('mcp', 'list', '--tree');
    await eventually(async () => {
      const { stdout } = await cli.run('mcp', 'list');
      expect(stdout).toMatch(/slow .*starting…/);
    });
    writeFileSync(go, '');
    expect((await listing).code).toBe(0);
    const { stdout } = await cli.run('mcp', 'list', '--json');
    const servers = (
      JSON.parse(stdout) as { servers: { name: string; status: { state: string } }[] }
    ).servers;
    expect(servers.find((server) => server.name === 'slow')?.status.state).not.toBe('starting');
  });
});
