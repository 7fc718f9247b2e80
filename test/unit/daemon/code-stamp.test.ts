import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeStampOf } from '../../../src/daemon/code-stamp.js';

/** Real files: the stamp is one stat of the daemon's own code, at start and when asked. */
describe('the daemon code stamp', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function codeFile(): string {
    const dir = mkdtempSync(join(tmpdir(), 'coffer-stamp-'));
    dirs.push(dir);
    const path = join(dir, 'daemon-Ab12.js');
    writeFileSync(path, 'export const built = 1;\n');
    utimesSync(path, new Date('2026-12-01T00:00:00Z'), new Date('2026-12-01T00:00:00Z'));
    return path;
  }

  it('is not replaced while the file is the one it started from', () => {
    const path = codeFile();
    const stamp = codeStampOf(path);
    expect(stamp.path).toBe(path);
    expect(stamp.replaced()).toBe(false);
    expect(stamp.replaced()).toBe(false);
  });

  it('is replaced once the file is rewritten, even with its old time', () => {
    const path = codeFile();
    const stamp = codeStampOf(path);
    writeFileSync(path, 'export const built = 22;\n');
    utimesSync(path, new Date('2026-12-01T00:00:00Z'), new Date('2026-12-01T00:00:00Z'));
    expect(stamp.replaced()).toBe(true);
  });

  it('is replaced once the file is touched by a build that writes the same bytes', () => {
    const path = codeFile();
    const stamp = codeStampOf(path);
    utimesSync(path, new Date('2026-12-07T10:00:00Z'), new Date('2026-12-07T10:00:00Z'));
    expect(stamp.replaced()).toBe(true);
  });

  it('is replaced once the file is gone (a build names its files after their content)', () => {
    const path = codeFile();
    const stamp = codeStampOf(path);
    rmSync(path);
    expect(stamp.replaced()).toBe(true);
  });

  it('is never called replaced when the file could not be read at start', () => {
    const stamp = codeStampOf(join(tmpdir(), 'coffer-no-such-file.js'));
    expect(stamp.replaced()).toBe(false);
  });
});
