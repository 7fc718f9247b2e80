import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  agentCatalog,
  agentStatus,
  applyInstall,
  applyUninstall,
  chooseLocation,
  findAgent,
  planInstall,
  planUninstall,
  readState,
  requireConfig,
  type AgentDefinition,
  type ConfigLocation,
  type Scope,
} from '../../../src/agents/index.js';
import { CofferError } from '../../../src/domain/errors.js';
import { agentSamples } from './agent-samples.js';
import { fakeHome, platforms, type FakeHome } from './fake-home.js';

const launch = { command: '/usr/bin/node', args: ['/srv/coffer/bin/coffer.js', 'shim'] };

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function install(home: FakeHome, agent: AgentDefinition, location: ConfigLocation) {
  const { document, exists } = requireConfig(location);
  const plan = planInstall({
    agent,
    location,
    document,
    exists,
    launch,
    replace: false,
    imports: [],
  });
  applyInstall(home.cofferHome, plan);
  return plan;
}

/** A file that stops parsing on its last line, whatever the format. */
function broken(agent: AgentDefinition, text: string): { text: string; line: number } {
  const location = agent.locations({ platform: 'linux', homeDir: '/h', env: {}, cwd: '/p' })[0]!;
  const tail = location.format === 'toml' ? 'oops = \n' : '}\n';
  return { text: text + tail, line: text.split('\n').length };
}

describe.each(platforms)('on %s', (platform) => {
  let home: FakeHome;
  beforeEach(() => {
    home = fakeHome(platform);
  });
  afterEach(() => home.cleanup());

  describe.each(agentCatalog.map((agent) => agent.id))('%s', (id) => {
    const agent = findAgent(id);

    it('reports a malformed file with its path and line, and never writes it', () => {
      const location = chooseLocation(agent, home.context, 'user');
      const bad = broken(agent, agentSamples[id]!.text);
      write(location.path, bad.text);
      let error: unknown;
      try {
        requireConfig(location);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(CofferError);
      expect((error as CofferError).message).toContain(`${location.path}:${bad.line}:`);
      expect(() => planUninstall(home.cofferHome, agent, location)).toThrow(
        `${location.path}:${bad.line}:`,
      );
      const status = agentStatus(agent, home.context).locations.find(
        (row) => row.location.path === location.path,
      );
      expect(status?.problem?.line).toBe(bad.line);
      expect(readFileSync(location.path, 'utf8')).toBe(bad.text);
      expect(existsSync(join(home.cofferHome, 'agents', 'backups'))).toBe(false);
    });

    it('creates a missing file on install and removes it on uninstall', () => {
      const location = chooseLocation(agent, home.context, 'user');
      expect(existsSync(location.path)).toBe(false);
      install(home, agent, location);
      const servers = requireConfig(location).document.servers(location.serversKey);
      expect(servers).toEqual({ coffer: agent.shimEntry(launch) });
      expect(agentStatus(agent, home.context).present).toBe(true);
      const plan = planUninstall(home.cofferHome, agent, location);
      expect(plan.exact).toBe(true);
      applyUninstall(home.cofferHome, plan);
      expect(existsSync(location.path)).toBe(false);
    });

    const otherScopes = [...new Set(agent.locations(fakeContext()).map((l) => l.scope))].filter(
      (scope) => scope !== 'user',
    );
    it.each(otherScopes)('installs and uninstalls at %s scope, byte for byte', (scope: Scope) => {
      const location = chooseLocation(agent, home.context, scope);
      const original = agentSamples[id]!.text;
      write(location.path, original);
      install(home, agent, location);
      expect(
        requireConfig(location).document.servers(location.serversKey)?.['coffer'],
      ).toBeDefined();
      applyUninstall(home.cofferHome, planUninstall(home.cofferHome, agent, location));
      expect(readFileSync(location.path, 'utf8')).toBe(original);
    });
  });
});

function fakeContext() {
  return { platform: 'linux' as const, homeDir: '/home/u', env: {}, cwd: '/work/p' };
}

describe('Claude Code local scope', () => {
  it('writes under projects["<dir>"] of ~/.claude.json and leaves the user servers alone', () => {
    const home = fakeHome('linux');
    try {
      const agent = findAgent('claude-code');
      const local = chooseLocation(agent, home.context, 'local');
      const original = agentSamples['claude-code']!.text;
      write(local.path, original);
      install(home, agent, local);
      const document = requireConfig(local).document;
      expect(document.servers(['projects', home.context.cwd, 'mcpServers'])).toEqual({
        coffer: agent.shimEntry(launch),
      });
      expect(Object.keys(document.servers(['mcpServers']) ?? {})).toEqual(['github', 'docs']);
      applyUninstall(home.cofferHome, planUninstall(home.cofferHome, agent, local));
      expect(readFileSync(local.path, 'utf8')).toBe(original);
      expect(readState(home.cofferHome).installs).toEqual([]);
    } finally {
      home.cleanup();
    }
  });
});

describe('run from the home folder', () => {
  it('lists a file that is both the user and the project config once, as the user one', () => {
    const home = fakeHome('linux');
    try {
      const context = { ...home.context, cwd: home.context.homeDir };
      const cursor = findAgent('cursor');
      const paths = cursor.locations(context).map((location) => location.path);
      expect(new Set(paths).size).toBeLessThan(paths.length);
      const listed = agentStatus(cursor, context).locations;
      expect(listed.map(({ location }) => [location.scope, location.path])).toEqual([
        ['user', join(home.context.homeDir, '.cursor', 'mcp.json')],
      ]);
      // Claude Code's local entries live in the user's file under another key: both stay.
      const claude = agentStatus(findAgent('claude-code'), context).locations;
      expect(claude.map(({ location }) => location.scope)).toEqual(['user', 'project', 'local']);
    } finally {
      home.cleanup();
    }
  });
});
