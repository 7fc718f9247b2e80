import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applyInstall,
  applyRestore,
  applyUninstall,
  planImport,
  planInstall,
  planRestore,
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
beforeEach(() => {
  ({ home, location } = cursorHome());
});
afterEach(() => home.cleanup());

function install(replace: boolean) {
  const { document, exists } = requireConfig(location);
  const imports = readState(home.cofferHome).imports;
  applyInstall(
    home.cofferHome,
    planInstall({ agent: cursor, location, document, exists, launch, replace, imports }),
  );
}

describe('restore of the backup an install --replace took', () => {
  it('forgets what that install removed: entries deleted since stay deleted', () => {
    const { document } = requireConfig(location);
    const items = planImport(cursor, document.servers(location.serversKey) ?? {}, { known: [] });
    recordImports(
      home.cofferHome,
      cursor,
      location,
      items.map((item) => ({ item, pending: [] })),
    );
    install(true);
    applyRestore(home.cofferHome, planRestore(home.cofferHome, cursor));
    expect(readFileSync(location.path, 'utf8')).toBe(cursorFile({ keep, tok }));
    expect(readState(home.cofferHome).installs).toEqual([]);

    // The user deletes the entry holding the token by hand, then installs again.
    writeFileSync(location.path, cursorFile({ keep }));
    install(false);
    const plan = planUninstall(home.cofferHome, cursor, location);
    expect(plan.restored).toEqual([]);
    expect(plan.exact).toBe(true);
    applyUninstall(home.cofferHome, plan);
    expect(readFileSync(location.path, 'utf8')).toBe(cursorFile({ keep }));
  });

  it('is itself undone by restoring the file the install left, install record and all', () => {
    install(true);
    const installed = readFileSync(location.path, 'utf8');
    applyRestore(home.cofferHome, planRestore(home.cofferHome, cursor));
    applyRestore(home.cofferHome, planRestore(home.cofferHome, cursor));
    expect(readFileSync(location.path, 'utf8')).toBe(installed);
    expect(readState(home.cofferHome).installs).toHaveLength(1);
    const plan = planUninstall(home.cofferHome, cursor, location);
    expect(plan.exact).toBe(true);
    applyUninstall(home.cofferHome, plan);
    expect(readFileSync(location.path, 'utf8')).toBe(cursorFile({ keep, tok }));
  });
});
