import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeBackedUp } from '../../../src/agents/backed-up-write.js';
import {
  applyInstall,
  applyUninstall,
  chooseLocation,
  listBackups,
  planImport,
  planInstall,
  planUninstall,
  readState,
  recordImports,
  requireConfig,
  type ConfigLocation,
} from '../../../src/agents/index.js';
import { cursor, cursorFile, cursorHome, keep, launch, tok } from './cursor-file.js';
import type { FakeHome } from './fake-home.js';

let home: FakeHome;
let location: ConfigLocation;
let clock: number;
beforeEach(() => {
  ({ home, location } = cursorHome());
  clock = Date.parse('2026-01-01T00:00:00Z');
});
afterEach(() => home.cleanup());

const tick = () => new Date((clock += 1000));
const read = () => readFileSync(location.path, 'utf8');
const ids = () => listBackups(home.cofferHome).map((backup) => backup.id);

function install(replace: boolean) {
  const { document, exists } = requireConfig(location);
  const imports = readState(home.cofferHome).imports;
  const plan = planInstall({ agent: cursor, location, document, exists, launch, replace, imports });
  applyInstall(home.cofferHome, plan, tick());
}

/** A change Coffer backs up, as a restore makes: `servers` become the file. */
function change(servers: Record<string, unknown>) {
  const before = read();
  const after = cursorFile(servers);
  const { scope, path } = location;
  writeBackedUp(
    home.cofferHome,
    { agent: 'cursor', scope, path, reason: 'restore', before, after },
    tick(),
  );
}

describe('backups are pruned', () => {
  it('keeps the newest ten, the oldest, and every one a record still needs', () => {
    const items = planImport(cursor, requireConfig(location).document.servers(['mcpServers'])!, {
      known: [],
    });
    recordImports(
      home.cofferHome,
      cursor,
      location,
      items.filter((item) => item.original === 'tok').map((item) => ({ item, pending: [] })),
    );
    // The first install takes the file before Coffer; --replace's backup holds "tok".
    writeFileSync(location.path, cursorFile({ keep, tok, other: { command: 'o' } }));
    change({ keep, tok });
    install(false);
    install(true);
    const [replaced] = ids();
    expect(readState(home.cofferHome).installs[0]?.removed).toEqual([
      { name: 'tok', backup_id: replaced },
    ]);
    const all = [...ids()];
    for (let round = 0; round < 15; round += 1) {
      const servers = JSON.parse(read()).mcpServers as Record<string, unknown>;
      change({ ...servers, [`note${round}`]: { command: 'n' } });
      all.unshift(ids()[0]!);
    }
    const oldest = all[all.length - 1]!;
    const firstInstall = readState(home.cofferHome).installs[0]?.backup_id;
    expect(ids()).toEqual([...all.slice(0, 10), replaced, firstInstall, oldest]);

    // Uninstall, entry by entry after the user's edit, still has what it needs.
    writeFileSync(location.path, cursorFile({ keep, mine: { command: 'm' } }));
    const structural = planUninstall(home.cofferHome, cursor, location);
    expect(structural.restored).toEqual(['tok']);
    applyUninstall(home.cofferHome, structural, tick());
    expect(JSON.parse(read()).mcpServers).toEqual({ keep, mine: { command: 'm' }, tok });
  });

  it('leaves the backups of other files alone', () => {
    const other = chooseLocation(cursor, home.context, 'project');
    mkdirSync(dirname(other.path), { recursive: true });
    writeFileSync(other.path, cursorFile({}));
    writeBackedUp(
      home.cofferHome,
      {
        agent: 'cursor',
        scope: 'project',
        path: other.path,
        reason: 'install',
        before: cursorFile({}),
        after: cursorFile({ keep }),
      },
      tick(),
    );
    const theirs = ids()[0];
    for (let round = 0; round < 14; round += 1) change({ keep, [`n${round}`]: { command: 'n' } });
    expect(ids()).toContain(theirs);
    expect(
      listBackups(home.cofferHome).filter((backup) => backup.path === location.path),
    ).toHaveLength(11);
  });
});
