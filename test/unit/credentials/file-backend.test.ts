import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileBackend } from '../../../src/credentials/index.js';
import { CofferError } from '../../../src/domain/errors.js';

describe('FileBackend (secrets.json fallback)', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'coffer-secrets-'));
    path = join(dir, 'home', 'secrets.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('stores, reads, lists and deletes, in a 0600 file in a 0700 directory', async () => {
    const backend = new FileBackend(path);
    expect(await backend.get('a/env/X')).toBeUndefined();
    await backend.set('a/env/X', 'one');
    await backend.set('b/header/Authorization', 'Bearer two');
    expect(await backend.get('a/env/X')).toBe('one');
    expect((await backend.accounts()).sort()).toEqual(['a/env/X', 'b/header/Authorization']);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'home')).mode & 0o777).toBe(0o700);
    expect(await backend.delete('a/env/X')).toBe(true);
    expect(await backend.delete('a/env/X')).toBe(false);
    expect(await new FileBackend(path).accounts()).toEqual(['b/header/Authorization']);
  });

  it('writes atomically: no temp file is left behind', async () => {
    const backend = new FileBackend(path);
    for (let i = 0; i < 20; i++) await backend.set(`s/env/V${i}`, `value-${i}`);
    expect(readdirSync(join(dir, 'home'))).toEqual(['secrets.json']);
  });

  it('tightens a loosened mode before reading', async () => {
    const backend = new FileBackend(path);
    await backend.set('a/env/X', 'one');
    chmodSync(path, 0o644);
    expect(await backend.get('a/env/X')).toBe('one');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('refuses a corrupt file without quoting it, and never overwrites it', async () => {
    const backend = new FileBackend(path);
    await backend.set('a/env/X', 'one');
    writeFileSync(path, '{"version":1,"secrets":{"a/env/X":"hunter2-leak"', { mode: 0o600 });
    const failure = await backend.set('a/env/Y', 'two').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CofferError);
    expect((failure as CofferError).code).toBe('STORE_FAILURE');
    expect((failure as CofferError).message).not.toContain('hunter2');
    await expect(backend.get('a/env/X')).rejects.toThrow(/not valid/);
  });
});
