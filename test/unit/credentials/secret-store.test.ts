import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSecretStore, type ProbedBackend } from '../../../src/credentials/index.js';

/** An in-memory keychain whose probe answers what the test says. */
class FakeKeychain implements ProbedBackend {
  readonly entries = new Map<string, string>();
  probes = 0;
  constructor(private readonly problem: string | undefined) {}
  probe() {
    this.probes++;
    return Promise.resolve(this.problem);
  }
  get(account: string) {
    return Promise.resolve(this.entries.get(account));
  }
  set(account: string, value: string) {
    this.entries.set(account, value);
    return Promise.resolve();
  }
  delete(account: string) {
    return Promise.resolve(this.entries.delete(account));
  }
  accounts() {
    return Promise.resolve([...this.entries.keys()]);
  }
}

function capture() {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  return { logger: pino(sink), warnings: () => lines.filter((line) => line.level === 40) };
}

const ref = { server: 'github', kind: 'env', name: 'GITHUB_TOKEN' } as const;

describe('createSecretStore', () => {
  let dir: string;
  let paths: { secretsFile: string };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'coffer-store-'));
    paths = { secretsFile: join(dir, 'secrets.json') };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('COFFER_KEYCHAIN=file forces the file and never touches the keychain', async () => {
    const keychain = new FakeKeychain(undefined);
    const log = capture();
    const store = createSecretStore({
      paths,
      env: { COFFER_KEYCHAIN: 'file' },
      logger: log.logger,
      keychain: () => keychain,
    });
    await store.set(ref, 'v');
    expect(await store.get(ref)).toBe('v');
    expect(await store.backend()).toMatchObject({ backend: 'file', location: paths.secretsFile });
    expect(keychain.probes).toBe(0);
    expect(keychain.entries.size).toBe(0);
    expect(log.warnings()).toHaveLength(1);
  });

  it('falls back to the file when the probe fails, warning once whatever the traffic', async () => {
    const log = capture();
    const store = createSecretStore({
      paths,
      env: {},
      logger: log.logger,
      keychain: () => new FakeKeychain('no D-Bus session'),
    });
    await Promise.all([store.set(ref, 'v'), store.list(), store.backend()]);
    await store.get(ref);
    const info = await store.backend();
    expect(info).toEqual({
      backend: 'file',
      location: paths.secretsFile,
      reason: 'no OS keychain is reachable (no D-Bus session)',
    });
    const warnings = log.warnings();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/not in the OS keychain.*no D-Bus session/);
  });

  it('uses the keychain when the probe passes; lists names of its own accounts only', async () => {
    const keychain = new FakeKeychain(undefined);
    keychain.entries.set('someone-else', 'x');
    const store = createSecretStore({ paths, env: {}, keychain: () => keychain });
    await store.set(ref, 'v');
    expect(keychain.entries.get('github/env/GITHUB_TOKEN')).toBe('v');
    expect(await store.list()).toEqual([ref]);
    expect(await store.delete(ref)).toBe(true);
    expect(await store.get(ref)).toBeUndefined();
    expect(keychain.probes).toBe(1);
    expect(await store.backend()).toEqual({ backend: 'keychain' });
  });

  it('rejects an unknown COFFER_KEYCHAIN value at once', () => {
    expect(() => createSecretStore({ paths, env: { COFFER_KEYCHAIN: 'vault' } })).toThrow(
      /COFFER_KEYCHAIN must be "auto" or "file"/,
    );
  });
});
