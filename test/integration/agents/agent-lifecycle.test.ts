import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  agentCatalog,
  applyInstall,
  applyRestore,
  applyUninstall,
  chooseLocation,
  findAgent,
  listBackups,
  planChanges,
  planImport,
  planInstall,
  planRestore,
  planUninstall,
  readState,
  recordImports,
  requireConfig,
  type AgentDefinition,
  type ConfigLocation,
  type ShimLaunch,
} from '../../../src/agents/index.js';
import { keysThatMatter } from '../../../src/agents/harmless-keys.js';
import { agentSamples, DOCS_AUTH, GITHUB_TOKEN } from './agent-samples.js';
import { fakeHome, platforms, type FakeHome } from './fake-home.js';

const launch: ShimLaunch = {
  command: '/opt/node/bin/node',
  args: ['/opt/coffer/bin/coffer.js', 'shim'],
  env: { COFFER_HOME: '/home/someone/.coffer-test' },
};

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function importAll(home: FakeHome, agent: AgentDefinition, location: ConfigLocation) {
  const { document } = requireConfig(location);
  const items = planImport(agent, document.servers(location.serversKey) ?? {}, {
    known: [],
  });
  const added = items.filter((item) => item.action === 'add');
  recordImports(
    home.cofferHome,
    agent,
    location,
    added.map((item) => ({ item, pending: [] })),
  );
  return items;
}

function install(home: FakeHome, agent: AgentDefinition, location: ConfigLocation, replace = true) {
  const { document, exists } = requireConfig(location);
  const plan = planInstall({
    agent,
    location,
    document,
    exists,
    launch,
    replace,
    imports: readState(home.cofferHome).imports,
  });
  return { plan, result: applyInstall(home.cofferHome, plan) };
}

function uninstall(home: FakeHome, agent: AgentDefinition, location: ConfigLocation) {
  const plan = planUninstall(home.cofferHome, agent, location);
  applyUninstall(home.cofferHome, plan);
  return plan;
}

const read = (path: string) => readFileSync(path, 'utf8');

/**
 * Every agent, on fake macOS, Linux and Windows homes: the whole life of an agent file
 * under Coffer, each step checked byte for byte where the issue demands it.
 */
describe.each(platforms)('agent files on %s', (platform) => {
  let home: FakeHome;
  beforeEach(() => {
    home = fakeHome(platform);
  });
  afterEach(() => home.cleanup());

  describe.each(agentCatalog.map((agent) => agent.id))('%s', (id) => {
    const agent = findAgent(id);
    const sample = agentSamples[id]!;

    it('imports the servers and moves their secrets out of the definition', () => {
      const location = chooseLocation(agent, home.context, 'user');
      write(location.path, sample.text);
      const items = importAll(home, agent, location);
      const github = items.find((item) => item.original === 'github')!;
      expect(github.action).toBe('add');
      expect(github.definition).toMatchObject({
        name: 'github',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        env: { LOG_LEVEL: 'debug' },
        secret_env: ['GITHUB_TOKEN'],
      });
      expect(github.secrets).toEqual([
        { server: 'github', kind: 'env', name: 'GITHUB_TOKEN', value: GITHUB_TOKEN },
      ]);
      expect(JSON.stringify(github.definition)).not.toContain('TESTSECRET');
      if (sample.docs !== undefined) {
        const docs = items.find((item) => item.original === 'docs')!;
        expect(docs.definition).toMatchObject({
          transport: sample.docs,
          url: 'https://docs.example.com/mcp',
          headers: {},
          secret_headers: ['Authorization'],
        });
        expect(docs.secrets).toEqual([
          { server: 'docs', kind: 'header', name: 'Authorization', value: DOCS_AUTH },
        ]);
      }
      // Import itself never writes to the agent file.
      expect(read(location.path)).toBe(sample.text);
    });

    it('installs, re-installs without a change, uninstalls and restores byte for byte', () => {
      const location = chooseLocation(agent, home.context, 'user');
      write(location.path, sample.text);
      const imported = importAll(home, agent, location).filter((item) => item.action === 'add');

      const raw = requireConfig(location).document.servers(location.serversKey)!;
      const { plan } = install(home, agent, location);
      expect(plan.entry).toBe('add');
      // An entry whose import left settings behind stays, with its token: the server in
      // Coffer runs without them. Keys on the agent's harmless list (Gemini's short
      // timeout, Cline's autoApprove) do not count: they say how the agent treats it.
      const matters = (item: (typeof imported)[number]) =>
        keysThatMatter(agent, raw[item.original], item.dropped ?? []).length > 0;
      const lossy = imported.filter(matters);
      const lossless = imported.filter((item) => !matters(item));
      expect([...plan.removed].sort()).toEqual(lossless.map((item) => item.original).sort());
      expect(plan.kept.map((entry) => entry.name)).toEqual(lossy.map((item) => item.original));
      const installed = read(location.path);
      expect(installed).toContain(sample.keep);
      if (lossy.length === 0) expect(installed).not.toContain('TESTSECRET');
      const servers = requireConfig(location).document.servers(location.serversKey)!;
      expect(Object.keys(servers)).toEqual(['coffer', ...lossy.map((item) => item.original)]);
      expect(servers['coffer']).toEqual(agent.shimEntry(launch));

      const again = install(home, agent, location);
      expect(planChanges(again.plan)).toBe(false);
      expect(again.result.changed).toBe(false);
      expect(read(location.path)).toBe(installed);

      const undone = uninstall(home, agent, location);
      expect(undone.exact).toBe(true);
      expect(read(location.path)).toBe(sample.text);

      // The latest backup is the file as uninstall found it: restoring it undoes uninstall…
      const restored = planRestore(home.cofferHome, agent);
      expect(restored.backup.reason).toBe('uninstall');
      applyRestore(home.cofferHome, restored);
      expect(read(location.path)).toBe(installed);
      // …and the install it brings back still uninstalls to the original bytes.
      expect(uninstall(home, agent, location).exact).toBe(true);
      expect(read(location.path)).toBe(sample.text);
    });

    it('restores a chosen backup', () => {
      const location = chooseLocation(agent, home.context, 'user');
      write(location.path, sample.text);
      install(home, agent, location, false);
      const first = listBackups(home.cofferHome, agent.id).find((b) => b.reason === 'install')!;
      expect(first.path).toBe(location.path);
      applyRestore(home.cofferHome, planRestore(home.cofferHome, agent, { backupId: first.id }));
      expect(read(location.path)).toBe(sample.text);
    });
  });
});
