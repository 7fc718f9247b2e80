import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePortRange } from '../../support/free-port-range.js';
import { cofferBin } from '../../support/running-daemon.js';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const CLAUDE_CONFIG = `{
  "mcpServers": {
    "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] }
  }
}
`;

/**
 * The agents commands that never need the daemon (list, install, uninstall, backups,
 * restore), run as a user runs them, on a fake Linux home. None may start a daemon.
 */
describe('coffer agents without the daemon', () => {
  let root: string;
  let home: string;
  let cofferHome: string;
  let env: NodeJS.ProcessEnv;
  let claudeFile: string;

  const coffer = (...args: string[]): Promise<Run> =>
    new Promise((done) => {
      execFile(
        process.execPath,
        [cofferBin, ...args],
        { env, timeout: 60_000 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
          done({ code, stdout, stderr });
        },
      );
    });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'coffer-e2e-agents-cli-'));
    home = join(root, 'home');
    cofferHome = join(root, 'coffer');
    env = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      COFFER_HOME: cofferHome,
      COFFER_PORT_RANGE: (await freePortRange()).env,
      NO_COLOR: '1',
    };
    delete env['CODEX_HOME'];
    claudeFile = join(home, '.config', 'Claude', 'claude_desktop_config.json');
    mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
    writeFileSync(claudeFile, CLAUDE_CONFIG);
    mkdirSync(join(home, '.codex'), { recursive: true });
    writeFileSync(join(home, '.codex', 'config.toml'), 'model = "o3"\n[mcp_servers.x\n');
  });

  afterAll(async () => {
    // Nothing here starts a daemon; stop one anyway should a regression have started it.
    if (existsSync(join(cofferHome, 'daemon.json'))) await coffer('stop');
    rmSync(root, { recursive: true, force: true });
  });

  it('lists the agents found, with a malformed file shown by path and line', async () => {
    const run = await coffer('agents', 'list', '--json');
    expect(run.code, run.stderr).toBe(0);
    const agents = JSON.parse(run.stdout).agents as {
      id: string;
      present: boolean;
      locations: { path: string; servers: number; problem?: { line: number } }[];
    }[];
    const claude = agents.find((agent) => agent.id === 'claude-desktop')!;
    expect(claude.present).toBe(true);
    expect(claude.locations[0]).toMatchObject({ path: claudeFile, servers: 1 });
    const codex = agents.find((agent) => agent.id === 'codex')!;
    expect(codex.locations[0]?.problem?.line).toBe(2);
    expect(agents.find((agent) => agent.id === 'zed')?.present).toBe(false);
  });

  it('refuses to touch a malformed file, exit code 2 with path and line', async () => {
    const file = join(home, '.codex', 'config.toml');
    const before = readFileSync(file, 'utf8');
    const run = await coffer('agents', 'install', 'codex');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}:2:`);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('installs after a dry run, then does nothing the second time', async () => {
    const dry = await coffer('agents', 'install', 'claude-desktop', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would add "coffer" entry');
    expect(readFileSync(claudeFile, 'utf8')).toBe(CLAUDE_CONFIG);

    const run = await coffer('agents', 'install', 'claude-desktop');
    expect(run.code, run.stderr).toBe(0);
    const servers = JSON.parse(readFileSync(claudeFile, 'utf8')).mcpServers as Record<
      string,
      { args: string[] }
    >;
    expect(Object.keys(servers)).toEqual(['coffer', 'files']);
    expect(servers['coffer']?.args.at(-1)).toBe('shim');
    const installed = readFileSync(claudeFile, 'utf8');
    expect((await coffer('agents', 'install', 'claude-desktop')).stdout).toContain(
      'Nothing to change.',
    );
    expect(readFileSync(claudeFile, 'utf8')).toBe(installed);
  });

  it('lists backups, uninstalls byte for byte and restores', async () => {
    const backups = JSON.parse((await coffer('agents', 'backups', '--json')).stdout).backups;
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatchObject({ agent: 'claude-desktop', reason: 'install' });

    const uninstall = await coffer('agents', 'uninstall', 'claude-desktop');
    expect(uninstall.code, uninstall.stderr).toBe(0);
    expect(readFileSync(claudeFile, 'utf8')).toBe(CLAUDE_CONFIG);

    const restore = await coffer('agents', 'restore', 'claude-desktop');
    expect(restore.code, restore.stderr).toBe(0);
    expect(readFileSync(claudeFile, 'utf8')).toContain('"coffer"');
    const again = await coffer('agents', 'uninstall', 'claude-desktop');
    expect(again.stdout).toContain('exactly as it was before Coffer');
    expect(readFileSync(claudeFile, 'utf8')).toBe(CLAUDE_CONFIG);
    expect(existsSync(join(cofferHome, 'daemon.json'))).toBe(false);
  });

  it('names the known agents for an unknown one', async () => {
    const run = await coffer('agents', 'install', 'emacs');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('known agents: claude-desktop, claude-code, cursor');
  });

  it('says it created a file there was none of, and uninstall removes it', async () => {
    const file = join(home, '.claude.json');
    expect(existsSync(file)).toBe(false);
    const run = await coffer('agents', 'install', 'claude-code');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`Created ${file} \\(there was no file before; backup \\S+ records that`),
    );
    expect(run.stdout).not.toContain('Backed up the previous file');
    expect(existsSync(file)).toBe(true);
    const uninstall = await coffer('agents', 'uninstall', 'claude-code');
    expect(uninstall.code, uninstall.stderr).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('names an older "coffer" entry Claude Code reads first, and without a daemon will not guess it is Coffer', async () => {
    const file = join(home, '.claude.json');
    const http = { type: 'http', url: 'http://127.0.0.1:8000/mcp' };
    const text = JSON.stringify({
      projects: { [process.cwd()]: { mcpServers: { coffer: http } } },
    });
    writeFileSync(file, text);
    const dry = await coffer('agents', 'install', 'claude-code', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      `[local] has a "coffer" entry of its own (http://127.0.0.1:8000/mcp), which comes first where it applies: coffer agents install claude-code --scope local replaces it`,
    );
    const local = await coffer('agents', 'install', 'claude-code', '--scope', 'local');
    expect(local.code).toBe(4);
    expect(local.stderr).toContain(
      'already has a server named "coffer" at http://127.0.0.1:8000/mcp, and no Coffer daemon runs to tell whether that is Coffer over HTTP (if it is, start Coffer (coffer start) and install again',
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
    rmSync(file);
  });
});
