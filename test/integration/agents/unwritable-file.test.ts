import fs, { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { basename, dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applyInstall,
  chooseLocation,
  findAgent,
  listBackups,
  readInstallPlan,
  readState,
} from '../../../src/agents/index.js';
import { CofferError } from '../../../src/domain/errors.js';
import { agentSamples } from './agent-samples.js';
import { fakeHome, type FakeHome } from './fake-home.js';

/**
 * A file the system will not let anyone replace (`chattr +i`), which even root meets:
 * the rename fails with EPERM. Faked, since tests cannot set the attribute, by patching
 * the built-in the Node way (test/unit/daemon/access-guard.test.ts says why not vi.mock).
 */
let refused = '';
const renameSync = fs.renameSync;
beforeEach(() => {
  fs.renameSync = (from: fs.PathLike, to: fs.PathLike) => {
    if (String(to) === refused) {
      throw Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' });
    }
    renameSync(from, to);
  };
  syncBuiltinESMExports();
});
afterEach(() => {
  fs.renameSync = renameSync;
  syncBuiltinESMExports();
});

const launch = { command: '/usr/bin/node', args: ['/srv/coffer/bin/coffer.js', 'shim'] };

let home: FakeHome;
beforeEach(() => {
  home = fakeHome('linux');
});
afterEach(() => {
  refused = '';
  home.cleanup();
});

describe('an agent file that cannot be replaced', () => {
  it('is named with the reason, and no backup is listed for the write that failed', () => {
    const agent = findAgent('cursor');
    const location = chooseLocation(agent, home.context, 'user');
    const original = agentSamples['cursor']!.text;
    mkdirSync(dirname(location.path), { recursive: true });
    writeFileSync(location.path, original);
    refused = location.path;
    const { cofferHome, context } = home;
    const plan = readInstallPlan({ cofferHome, context, agent, location, launch, replace: false });
    let error: unknown;
    try {
      applyInstall(home.cofferHome, plan);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CofferError);
    expect((error as CofferError).code).toBe('INVALID_INPUT');
    expect((error as CofferError).message).toBe(`Cannot write ${location.path}: permission denied`);
    expect((error as CofferError).hint).toMatch(/chattr -i/);
    expect(readFileSync(location.path, 'utf8')).toBe(original);
    expect(listBackups(home.cofferHome)).toEqual([]);
    expect(readState(home.cofferHome).installs).toEqual([]);
    // …and no temp file is left next to it.
    expect(readdirSync(dirname(location.path))).toEqual([basename(location.path)]);
  });
});
