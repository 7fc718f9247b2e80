import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensurePrivateDir } from '../../../src/config/private-files.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const mode = (path: string) => statSync(path).mode & 0o7777;

describe('ensurePrivateDir', () => {
  it('makes every folder it creates 0700, whatever the umask', () => {
    const base = mkdtempSync(join(tmpdir(), 'coffer-private-'));
    made.push(base);
    const old = process.umask(0);
    try {
      ensurePrivateDir(join(base, 'home', 'logs'));
    } finally {
      process.umask(old);
    }
    expect([mode(join(base, 'home')), mode(join(base, 'home', 'logs'))]).toEqual([0o700, 0o700]);
  });

  it('leaves the mode of a folder that was there: COFFER_HOME=/tmp must not lock others out', () => {
    const shared = mkdtempSync(join(tmpdir(), 'coffer-shared-'));
    made.push(shared);
    chmodSync(shared, 0o1777);
    ensurePrivateDir(shared);
    mkdirSync(join(shared, 'kept'), { mode: 0o755 });
    chmodSync(join(shared, 'kept'), 0o755);
    ensurePrivateDir(join(shared, 'kept'));
    expect([mode(shared), mode(join(shared, 'kept'))]).toEqual([0o1777, 0o755]);
  });
});
