import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  chooseLocation,
  createAgentSetup,
  findAgent,
  recordImports,
} from '../../../src/agents/index.js';
import { planImport } from '../../../src/agents/import-plan.js';
import type { KnownServer } from '../../../src/domain/same-launch.js';
import { fakeHome, type FakeHome } from './fake-home.js';

/** The Agents page's count of what an import of a file would still do (`to_import`). */

const launch = { command: '/usr/bin/node', args: ['/srv/coffer/bin/coffer.js', 'shim'] };
const stdio = (command: string) => ({ command, args: ['--stdio'] });
const known = (name: string, command: string): KnownServer => ({
  name,
  transport: 'stdio',
  command,
  args: ['--stdio'],
  env: {},
  headers: {},
  secret_env: [],
  secret_headers: [],
});

describe('AgentSetup.list: what an import would still do, per file', () => {
  let home: FakeHome;
  beforeEach(() => {
    home = fakeHome('linux');
  });
  afterEach(() => home.cleanup());

  const cursorLocation = () => {
    const list = createAgentSetup({ cofferHome: home.cofferHome, context: home.context, launch });
    return (servers: readonly KnownServer[]) =>
      list.list({ known: servers }).find((agent) => agent.id === 'cursor')?.locations[0];
  };

  it('counts new entries and ones Coffer has but not yet noted; none once imported', () => {
    const file = join(home.context.homeDir, '.cursor', 'mcp.json');
    mkdirSync(join(home.context.homeDir, '.cursor'), { recursive: true });
    const entries = { fresh: stdio('fresh-mcp'), twin: stdio('twin-mcp'), other: stdio('o-mcp') };
    writeFileSync(file, JSON.stringify({ mcpServers: entries }));
    const cursor = findAgent('cursor');
    const location = chooseLocation(cursor, home.context, 'user');
    const listed = cursorLocation();
    const has = [known('twin', 'twin-mcp')];

    expect(listed(has)).toMatchObject({ path: file, servers: 3, to_import: 3 });
    // `fresh` and `twin` imported (twin noted as served): only `other` is left.
    const items = planImport(cursor, { fresh: entries.fresh, twin: entries.twin }, { known: has });
    recordImports(
      home.cofferHome,
      cursor,
      location,
      items.map((item) => ({ item, pending: [] })),
    );
    const after = [...has, known('fresh', 'fresh-mcp')];
    expect(listed(after)).toMatchObject({ servers: 3, to_import: 1 });
    // An entry Coffer has under the same launch, never noted, is still one to act on.
    expect(listed([...after, known('other', 'o-mcp')])).toMatchObject({ to_import: 1 });
    recordImports(home.cofferHome, cursor, location, [
      ...planImport(cursor, { other: entries.other }, { known: after }).map((item) => ({
        item,
        pending: [],
      })),
    ]);
    expect(listed([...after, known('other', 'o-mcp')])).toMatchObject({ to_import: 0 });
  });
});

describe("AgentSetup.planImport: a project file's relative paths", () => {
  let home: FakeHome;
  beforeEach(() => {
    home = fakeHome('linux');
  });
  afterEach(() => home.cleanup());

  it('runs a server that names a file of the project in the project, as the daemon imports it', () => {
    const project = home.context.cwd;
    mkdirSync(join(project, '.cursor'));
    mkdirSync(join(project, 'server'));
    writeFileSync(join(project, 'server', 'main.js'), '');
    const servers = { mine: { command: 'node', args: ['server/main.js'] }, pkg: stdio('pkg-mcp') };
    writeFileSync(join(project, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: servers }));
    const setup = createAgentSetup({ cofferHome: home.cofferHome, context: home.context, launch });

    const { items } = setup.planImport('cursor', 'project', { known: [] });
    const byName = new Map(items.map((item) => [item.server, item]));
    expect(byName.get('mine')?.definition).toMatchObject({
      cwd: project,
      args: ['server/main.js'],
    });
    expect(byName.get('pkg')?.definition?.cwd).toBeUndefined();
  });
});
