import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  agentCatalog,
  agentStatus,
  applyInstall,
  applyUninstall,
  chooseLocation,
  findAgent,
  readInstallPlan,
  planUninstall,
  requireConfig,
  type AgentDefinition,
  type ConfigLocation,
} from '../../../src/agents/index.js';
import { CofferError } from '../../../src/domain/errors.js';
import { agentSamples } from './agent-samples.js';
import { fakeHome, type FakeHome } from './fake-home.js';

/** Files as users' editors leave them, not as Coffer would write them. */

const launch = { command: '/usr/bin/node', args: ['/srv/coffer/bin/coffer.js', 'shim'] };

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function planFor(agent: AgentDefinition, location: ConfigLocation) {
  const { cofferHome, context } = home;
  return readInstallPlan({ cofferHome, context, agent, location, launch, replace: false });
}

let home: FakeHome;
beforeEach(() => {
  home = fakeHome('linux');
});
afterEach(() => home.cleanup());

const someHome = { platform: 'linux' as const, homeDir: '/h', env: {}, cwd: '/p' };
const jsonAgents = agentCatalog
  .filter((agent) => agent.locations(someHome)[0]?.format !== 'toml')
  .map((agent) => agent.id);

describe.each(jsonAgents)('%s file with a byte order mark', (id) => {
  it('is read, installed into, and given back byte for byte', () => {
    const agent = findAgent(id);
    const location = chooseLocation(agent, home.context, 'user');
    const original = `\uFEFF${agentSamples[id]!.text}`;
    write(location.path, original);
    const status = agentStatus(agent, home.context).locations.find(
      (row) => row.location.path === location.path,
    );
    expect(status?.problem).toBeUndefined();
    applyInstall(home.cofferHome, planFor(agent, location));
    const installed = readFileSync(location.path, 'utf8');
    expect(installed.startsWith('\uFEFF')).toBe(true);
    expect(requireConfig(location).document.servers(location.serversKey)?.['coffer']).toEqual(
      agent.shimEntry(launch),
    );
    applyUninstall(home.cofferHome, planUninstall(home.cofferHome, agent, location));
    expect(readFileSync(location.path, 'utf8')).toBe(original);
  });
});

describe('a read-only agent file', () => {
  it('is refused, with the fix, and neither written nor backed up', () => {
    const agent = findAgent('cursor');
    const location = chooseLocation(agent, home.context, 'user');
    const original = agentSamples['cursor']!.text;
    write(location.path, original);
    chmodSync(location.path, 0o444);
    const plan = planFor(agent, location);
    let error: unknown;
    try {
      applyInstall(home.cofferHome, plan);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CofferError);
    expect((error as CofferError).code).toBe('INVALID_INPUT');
    expect((error as CofferError).message).toContain(`${location.path} is read-only`);
    expect((error as CofferError).hint).toContain(`chmod u+w ${location.path}`);
    expect(readFileSync(location.path, 'utf8')).toBe(original);
    expect(existsSync(join(home.cofferHome, 'agents', 'backups'))).toBe(false);
  });
});

describe('a JSONC file of comments alone (a new VS Code mcp.json)', () => {
  it('gets the object after its comments, and uninstall gives it back', () => {
    const agent = findAgent('vscode');
    const location = chooseLocation(agent, home.context, 'user');
    const original = '// Add MCP servers here\n';
    write(location.path, original);
    applyInstall(home.cofferHome, planFor(agent, location));
    const installed = readFileSync(location.path, 'utf8');
    expect(installed.startsWith(`${original}{\n  "servers": {\n`)).toBe(true);
    expect(requireConfig(location).document.servers(['servers'])?.['coffer']).toEqual(
      agent.shimEntry(launch),
    );
    applyUninstall(home.cofferHome, planUninstall(home.cofferHome, agent, location));
    expect(readFileSync(location.path, 'utf8')).toBe(original);
  });
});
