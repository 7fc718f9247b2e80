import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applyInstall,
  applyUninstall,
  chooseLocation,
  findAgent,
  installSummary,
  planImport,
  planInstall,
  planUninstall,
  readState,
  recordImports,
  requireConfig,
  type AgentDefinition,
  type ConfigLocation,
  type ShimLaunch,
} from '../../../src/agents/index.js';
import { agentSamples } from './agent-samples.js';
import { fakeHome, type FakeHome } from './fake-home.js';

const launch: ShimLaunch = {
  command: '/usr/bin/node',
  args: ['/srv/coffer/bin/coffer.js', 'shim'],
};
const cursor = findAgent('cursor');

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function importAll(
  home: FakeHome,
  agent: AgentDefinition,
  location: ConfigLocation,
  pending: string[] = [],
) {
  const { document } = requireConfig(location);
  const items = planImport(agent, document.servers(location.serversKey) ?? {}, {
    known: [],
  });
  const added = items.filter((item) => item.action === 'add');
  recordImports(
    home.cofferHome,
    agent,
    location,
    added.map((item) => ({ item, pending })),
  );
}

function install(
  home: FakeHome,
  agent: AgentDefinition,
  location: ConfigLocation,
  using = launch,
  replace = true,
) {
  const { document, exists } = requireConfig(location);
  const imports = readState(home.cofferHome).imports;
  const plan = planInstall({ agent, location, document, exists, launch: using, replace, imports });
  applyInstall(home.cofferHome, plan);
  return plan;
}

const read = (path: string) => readFileSync(path, 'utf8');

describe('install --replace and uninstall keep users safe', () => {
  let home: FakeHome;
  let location: ConfigLocation;
  beforeEach(() => {
    home = fakeHome('linux');
    location = chooseLocation(cursor, home.context, 'user');
    write(location.path, agentSamples['cursor']!.text);
  });
  afterEach(() => home.cleanup());

  it('keeps an entry that changed since it was imported', () => {
    importAll(home, cursor, location);
    write(
      location.path,
      read(location.path).replace('"LOG_LEVEL": "debug"', '"LOG_LEVEL": "info"'),
    );
    const plan = install(home, cursor, location);
    expect(plan.removed).toEqual(['docs']);
    expect(plan.kept).toEqual([
      { name: 'github', reason: expect.stringContaining('changed since') },
    ]);
    expect(Object.keys(requireConfig(location).document.servers(['mcpServers'])!)).toContain(
      'github',
    );
  });

  it('without --replace, says which imported entries the agent will now list twice', () => {
    importAll(home, cursor, location);
    const plan = install(home, cursor, location, launch, false);
    expect([...plan.servedTwice].sort()).toEqual(['docs', 'github']);
    expect(plan.removed).toEqual([]);
    const servers = requireConfig(location).document.servers(['mcpServers'])!;
    expect(Object.keys(servers).sort()).toEqual(['coffer', 'docs', 'github']);
    expect(installSummary(plan, launch, false)).toContain(
      '! "docs" stays in this file and Coffer serves it too, so the agent lists its tools twice (to remove it here: install again with --replace)',
    );
    expect(install(home, cursor, location).servedTwice).toEqual([]);
  });

  it('keeps an entry whose secrets the daemon has not stored', () => {
    importAll(home, cursor, location, ['GITHUB_TOKEN']);
    const plan = install(home, cursor, location);
    expect(plan.removed).toEqual([]);
    expect(plan.kept.map((kept) => kept.name).sort()).toEqual(['docs', 'github']);
    expect(read(location.path)).toContain('TESTSECRET');
  });

  it('keeps an entry whose import left settings behind, and names them', () => {
    const vscode = findAgent('vscode');
    const at = chooseLocation(vscode, home.context, 'user');
    write(
      at.path,
      `${JSON.stringify({
        servers: {
          plain: { type: 'stdio', command: 'npx', args: ['plain-mcp'] },
          dotenv: { type: 'stdio', command: 'npx', args: ['env-mcp'], envFile: '/p/.env' },
        },
      })}\n`,
    );
    importAll(home, vscode, at);
    expect(readState(home.cofferHome).imports.map((record) => record.not_carried_over)).toEqual([
      undefined,
      ['envFile'],
    ]);
    const plan = install(home, vscode, at);
    expect(plan.removed).toEqual(['plain']);
    expect(plan.kept).toEqual([
      {
        name: 'dotenv',
        reason:
          "Coffer did not carry over its envFile (see the import's notes); remove it by hand once Coffer's server works without them",
      },
    ]);
    expect(read(at.path)).toContain('/p/.env');
  });

  it('keeps an entry whose ${VAR:-default} the import read as its default, and names it', () => {
    const claudeCode = findAgent('claude-code');
    const at = chooseLocation(claudeCode, home.context, 'user');
    write(
      at.path,
      `${JSON.stringify({
        mcpServers: {
          plain: { command: 'npx', args: ['plain-mcp'] },
          rooted: { command: 'npx', args: ['files-mcp', '${ROOT:-/srv/data}'] },
        },
      })}\n`,
    );
    importAll(home, claudeCode, at);
    const plan = install(home, claudeCode, at);
    expect(plan.removed).toEqual(['plain']);
    expect(plan.kept).toEqual([
      {
        name: 'rooted',
        reason:
          "Coffer did not carry over its ${ROOT:-/srv/data} (see the import's notes); remove it by hand once Coffer's server works without them",
      },
    ]);
    expect(read(at.path)).toContain('${ROOT:-/srv/data}');
  });

  it("removes an entry whose only leftovers are on the agent's harmless list, and says they go", () => {
    const gemini = findAgent('gemini');
    const at = chooseLocation(gemini, home.context, 'user');
    write(
      at.path,
      `${JSON.stringify({
        mcpServers: {
          quick: { command: 'q-mcp', timeout: 30000, trust: true, description: 'Q' },
          slow: { command: 's-mcp', timeout: 1800000 },
          some: { command: 'x-mcp', excludeTools: ['delete_all'] },
        },
      })}\n`,
    );
    importAll(home, gemini, at);
    const plan = install(home, gemini, at);
    expect(plan.removed).toEqual(['quick']);
    expect(plan.kept.map((kept) => [kept.name, kept.reason])).toEqual([
      ['slow', expect.stringContaining('Coffer did not carry over its timeout')],
      ['some', expect.stringContaining('Coffer did not carry over its excludeTools')],
    ]);
    expect(installSummary(plan, launch, false)).toContain(
      '- remove "quick" (now served by Coffer; its timeout, trust, description go with it: they set how Gemini CLI treats the server, not the server)',
    );
    const cline = findAgent('cline');
    const file = chooseLocation(cline, home.context, 'user');
    write(
      file.path,
      `${JSON.stringify({
        mcpServers: {
          web: { command: 'w-mcp', autoApprove: ['fetch'], disabled: false, timeout: 60 },
        },
      })}\n`,
    );
    importAll(home, cline, file);
    expect(install(home, cline, file).removed).toEqual(['web']);
  });

  it('keeps an entry whose server Coffer has switched off, or no longer has', () => {
    importAll(home, cursor, location);
    const { document, exists } = requireConfig(location);
    const imports = readState(home.cofferHome).imports;
    const cofferServers = new Map([['github', false]]);
    const plan = planInstall({
      ...{ agent: cursor, location, document, exists, launch, replace: true, imports },
      cofferServers,
    });
    expect(plan.removed).toEqual([]);
    expect(plan.kept).toEqual([
      {
        name: 'github',
        reason:
          'Coffer has "github" switched off (coffer mcp enable github, then install --replace again)',
      },
      { name: 'docs', reason: 'Coffer no longer has "docs"; import it again' },
    ]);
    const both = new Map([
      ['github', true],
      ['docs', true],
    ]);
    const served = planInstall({
      ...{ agent: cursor, location, document, exists, launch, replace: true, imports },
      cofferServers: both,
    });
    expect([...served.removed].sort()).toEqual(['docs', 'github']);
  });

  it('removes every copy of a name the file gives twice, and uninstall brings back the one read', () => {
    const twice =
      '{\n  "mcpServers": {\n    "github": { "command": "old-github-mcp" },\n    "docs": { "command": "docs-mcp" },\n    "github": { "command": "github-mcp" }\n  }\n}\n';
    write(location.path, twice);
    importAll(home, cursor, location);
    const plan = install(home, cursor, location);
    expect([...plan.removed].sort()).toEqual(['docs', 'github']);
    expect(read(location.path)).not.toContain('github');
    expect(Object.keys(requireConfig(location).document.servers(['mcpServers'])!)).toEqual([
      'coffer',
    ]);
    write(
      location.path,
      read(location.path).replace(
        '"mcpServers": {',
        '"mcpServers": {\n    "notes": { "command": "notes-mcp" },',
      ),
    );
    applyUninstall(home.cofferHome, planUninstall(home.cofferHome, cursor, location));
    expect(requireConfig(location).document.servers(['mcpServers'])).toEqual({
      notes: { command: 'notes-mcp' },
      github: { command: 'github-mcp' },
      docs: { command: 'docs-mcp' },
    });
  });

  it('refuses to overwrite a "coffer" entry that is not Coffer', () => {
    const foreign = '{ "mcpServers": { "coffer": { "command": "coffee", "args": ["--brew"] } } }\n';
    write(location.path, foreign);
    expect(() => install(home, cursor, location)).toThrow(/does not run Coffer/);
    expect(read(location.path)).toBe(foreign);
  });

  it('updates the entry when Coffer moved, and uninstall still returns the original', () => {
    importAll(home, cursor, location);
    install(home, cursor, location);
    const moved = { command: '/opt/node22/bin/node', args: ['/opt/coffer/bin/coffer.js', 'shim'] };
    expect(install(home, cursor, location, moved).entry).toBe('update');
    const plan = planUninstall(home.cofferHome, cursor, location);
    expect(plan.exact).toBe(true);
    applyUninstall(home.cofferHome, plan);
    expect(read(location.path)).toBe(agentSamples['cursor']!.text);
  });

  it('after the user edits the file, uninstall undoes only its own changes', () => {
    importAll(home, cursor, location);
    install(home, cursor, location);
    const edited = read(location.path).replace(
      '"mcpServers": {',
      '"mcpServers": {\n    "notes": { "command": "notes-mcp" },',
    );
    write(location.path, edited);
    const plan = planUninstall(home.cofferHome, cursor, location);
    expect(plan.exact).toBe(false);
    expect([...plan.restored].sort()).toEqual(['docs', 'github']);
    applyUninstall(home.cofferHome, plan);
    const servers = requireConfig(location).document.servers(['mcpServers'])!;
    expect(Object.keys(servers).sort()).toEqual(['docs', 'github', 'notes']);
    expect(read(location.path)).toContain("// Cursor's global MCP servers");
  });

  it('keeps CRLF line endings and the file mode, and writes through a symlink', () => {
    const real = join(home.root, 'dotfiles', 'cursor-mcp.json');
    const crlf = agentSamples['cursor']!.text.replace(/\n/g, '\r\n');
    write(real, crlf);
    chmodSync(real, 0o640);
    rmSync(location.path);
    symlinkSync(real, location.path);
    install(home, cursor, location);
    expect(lstatSync(location.path).isSymbolicLink()).toBe(true);
    const installed = read(real);
    expect(installed.replace(/\r\n/g, '')).not.toContain('\n');
    expect(statSync(real).mode & 0o777).toBe(0o640);
    applyUninstall(home.cofferHome, planUninstall(home.cofferHome, cursor, location));
    expect(read(real)).toBe(crlf);
  });
});

describe('TOML with CRLF line endings (Codex on Windows)', () => {
  it('stays CRLF through install and comes back byte for byte', () => {
    const home = fakeHome('win32');
    try {
      const codex = findAgent('codex');
      const location = chooseLocation(codex, home.context, 'user');
      const crlf = agentSamples['codex']!.text.replace(/\n/g, '\r\n');
      write(location.path, crlf);
      importAll(home, codex, location);
      install(home, codex, location);
      const installed = read(location.path);
      expect(installed.replace(/\r\n/g, '')).not.toContain('\n');
      expect(installed).toContain('model = "o3"  # the default model');
      expect(installed).not.toContain('TESTSECRET');
      applyUninstall(home.cofferHome, planUninstall(home.cofferHome, codex, location));
      expect(read(location.path)).toBe(crlf);
    } finally {
      home.cleanup();
    }
  });
});
