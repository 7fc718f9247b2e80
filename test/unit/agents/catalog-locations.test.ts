import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentCatalog, agentContextFrom, findAgent } from '../../../src/agents/index.js';
import type { AgentContext, Platform } from '../../../src/agents/index.js';

/**
 * Where each agent keeps its MCP servers, per platform, as its documentation says
 * (docs/AGENTS.md cites each source). Paths are built from a fake home so the table
 * reads like the docs: `~` is the home, `%APPDATA%` Windows' roaming app data.
 */
const HOME = '/fake/home';
const APPDATA = '/fake/home/AppData/Roaming';
const CWD = '/fake/project';

function contextFor(platform: Platform, extra: Record<string, string> = {}): AgentContext {
  const env = platform === 'win32' ? { USERPROFILE: HOME, APPDATA } : { HOME };
  return agentContextFrom({ ...env, ...extra }, platform, CWD);
}

const expand = (path: string) =>
  join(
    ...path.split('/').map((part) => (part === '~' ? HOME : part === '%APPDATA%' ? APPDATA : part)),
  );

type Table = Record<string, Record<Platform, string[]>>;

/** The user-scope files, in order of preference. */
const userFiles: Table = {
  'claude-desktop': {
    darwin: ['~/Library/Application Support/Claude/claude_desktop_config.json'],
    linux: ['~/.config/Claude/claude_desktop_config.json'],
    win32: ['%APPDATA%/Claude/claude_desktop_config.json'],
  },
  'claude-code': {
    darwin: ['~/.claude.json'],
    linux: ['~/.claude.json'],
    win32: ['~/.claude.json'],
  },
  cursor: {
    darwin: ['~/.cursor/mcp.json'],
    linux: ['~/.cursor/mcp.json'],
    win32: ['~/.cursor/mcp.json'],
  },
  vscode: {
    darwin: ['~/Library/Application Support/Code/User/mcp.json'],
    linux: ['~/.config/Code/User/mcp.json'],
    win32: ['%APPDATA%/Code/User/mcp.json'],
  },
  windsurf: {
    darwin: ['~/.codeium/windsurf/mcp_config.json'],
    linux: ['~/.codeium/windsurf/mcp_config.json'],
    win32: ['~/.codeium/windsurf/mcp_config.json'],
  },
  codex: {
    darwin: ['~/.codex/config.toml'],
    linux: ['~/.codex/config.toml'],
    win32: ['~/.codex/config.toml'],
  },
  gemini: {
    darwin: ['~/.gemini/settings.json'],
    linux: ['~/.gemini/settings.json'],
    win32: ['~/.gemini/settings.json'],
  },
  zed: {
    darwin: ['~/.config/zed/settings.json'],
    linux: ['~/.config/zed/settings.json'],
    win32: ['%APPDATA%/Zed/settings.json'],
  },
  cline: {
    darwin: [
      '~/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
      '~/.cline/data/settings/cline_mcp_settings.json',
    ],
    linux: [
      '~/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
      '~/.cline/data/settings/cline_mcp_settings.json',
    ],
    win32: [
      '%APPDATA%/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
      '~/.cline/data/settings/cline_mcp_settings.json',
    ],
  },
};

const projectFiles: Record<string, string> = {
  'claude-code': '.mcp.json',
  cursor: '.cursor/mcp.json',
  vscode: '.vscode/mcp.json',
  codex: '.codex/config.toml',
  gemini: '.gemini/settings.json',
  zed: '.zed/settings.json',
};

const serverKeys: Record<string, string> = {
  vscode: 'servers',
  zed: 'context_servers',
  codex: 'mcp_servers',
};

describe.each(['darwin', 'linux', 'win32'] as const)('config locations on %s', (platform) => {
  it.each(agentCatalog.map((agent) => agent.id))('%s', (id) => {
    const locations = findAgent(id).locations(contextFor(platform));
    const user = locations.filter((location) => location.scope === 'user');
    expect(user.map((location) => location.path)).toEqual(userFiles[id]![platform].map(expand));
    const project = locations.find((location) => location.scope === 'project');
    expect(project?.path).toBe(
      projectFiles[id] === undefined ? undefined : join(CWD, projectFiles[id]),
    );
    for (const location of locations.filter((l) => l.scope !== 'local'))
      expect(location.serversKey).toEqual([serverKeys[id] ?? 'mcpServers']);
  });
});

describe('environment overrides', () => {
  it('follows XDG_CONFIG_HOME on Linux', () => {
    const context = contextFor('linux', { XDG_CONFIG_HOME: '/xdg' });
    expect(findAgent('zed').locations(context)[0]?.path).toBe('/xdg/zed/settings.json');
    expect(findAgent('vscode').locations(context)[0]?.path).toBe('/xdg/Code/User/mcp.json');
  });

  it('follows CODEX_HOME', () => {
    const context = contextFor('darwin', { CODEX_HOME: '/codex-home' });
    expect(findAgent('codex').locations(context)[0]?.path).toBe('/codex-home/config.toml');
  });

  it("puts Claude Code's local scope under projects[<cwd>] of ~/.claude.json", () => {
    const local = findAgent('claude-code')
      .locations(contextFor('linux'))
      .find((location) => location.scope === 'local');
    expect(local).toMatchObject({
      path: join(HOME, '.claude.json'),
      serversKey: ['projects', CWD, 'mcpServers'],
    });
  });

  it('reads the home from USERPROFILE on Windows and HOME elsewhere', () => {
    expect(agentContextFrom({ USERPROFILE: 'C:/Users/a', HOME: '/x' }, 'win32').homeDir).toBe(
      'C:/Users/a',
    );
    expect(agentContextFrom({ USERPROFILE: 'C:/Users/a', HOME: '/x' }, 'linux').homeDir).toBe('/x');
    expect(agentContextFrom({}, 'freebsd').platform).toBe('linux');
  });
});

describe('findAgent', () => {
  it('names the known agents when it does not know one', () => {
    expect(() => findAgent('emacs')).toThrow(/Unknown agent "emacs"/);
  });
});
