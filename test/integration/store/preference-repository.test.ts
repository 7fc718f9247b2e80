import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverDefinitionSchema } from '../../../src/domain/server-definition.js';
import { openTempStore, type TempStore } from './temp-store.js';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T01:00:00.000Z';
const HOUR = 3_600_000;

describe('SqlitePreferenceRepository', () => {
  let t: TempStore;

  beforeEach(async () => {
    t = await openTempStore();
    await t.repos.servers.create(
      serverDefinitionSchema.parse({ name: 'files', transport: 'stdio', command: 'x' }),
    );
  });

  afterEach(async () => {
    await t.dispose();
  });

  it('inserts new keys enabled per autoEnable and answers for each listed key', async () => {
    const on = await t.repos.preferences.reconcile('files', 'tool', ['read', 'write'], true);
    expect([...on]).toEqual([
      ['read', true],
      ['write', true],
    ]);
    const off = await t.repos.preferences.reconcile('files', 'prompt', ['summarise'], false);
    expect([...off]).toEqual([['summarise', false]]);
    expect(await t.repos.preferences.list('files')).toEqual([
      {
        server: 'files',
        type: 'prompt',
        key: 'summarise',
        enabled: false,
        first_seen_at: T0,
        last_seen_at: T0,
      },
      {
        server: 'files',
        type: 'tool',
        key: 'read',
        enabled: true,
        first_seen_at: T0,
        last_seen_at: T0,
      },
      {
        server: 'files',
        type: 'tool',
        key: 'write',
        enabled: true,
        first_seen_at: T0,
        last_seen_at: T0,
      },
    ]);
  });

  it('bumps last_seen_at of seen keys, keeps the user choice, and keeps vanished keys', async () => {
    await t.repos.preferences.reconcile('files', 'tool', ['read', 'write'], true);
    await t.repos.preferences.setEnabled('files', 'tool', ['write'], false);
    t.clock.advance(HOUR);

    // `write` is still listed (stays disabled), `read` vanished, `delete` is new; the
    // server's policy is now "do not auto-enable".
    const result = await t.repos.preferences.reconcile('files', 'tool', ['write', 'delete'], false);

    expect([...result].sort()).toEqual([
      ['delete', false],
      ['write', false],
    ]);
    const byKey = new Map((await t.repos.preferences.list('files', 'tool')).map((p) => [p.key, p]));
    expect(byKey.get('read')).toMatchObject({ enabled: true, first_seen_at: T0, last_seen_at: T0 });
    expect(byKey.get('write')).toMatchObject({
      enabled: false,
      first_seen_at: T0,
      last_seen_at: T1,
    });
    expect(byKey.get('delete')).toMatchObject({
      enabled: false,
      first_seen_at: T1,
      last_seen_at: T1,
    });
  });

  it('keeps types apart: the same key as tool and prompt are two preferences', async () => {
    await t.repos.preferences.reconcile('files', 'tool', ['x'], true);
    await t.repos.preferences.reconcile('files', 'prompt', ['x'], false);
    expect(await t.repos.preferences.isEnabled('files', 'tool', 'x')).toBe(true);
    expect(await t.repos.preferences.isEnabled('files', 'prompt', 'x')).toBe(false);
    expect(await t.repos.preferences.list('files', 'prompt')).toHaveLength(1);
  });

  it('tolerates duplicate and empty key lists, and many keys at once', async () => {
    expect((await t.repos.preferences.reconcile('files', 'tool', [], true)).size).toBe(0);
    const dup = await t.repos.preferences.reconcile('files', 'tool', ['a', 'a'], true);
    expect([...dup]).toEqual([['a', true]]);
    const many = Array.from({ length: 1500 }, (_, i) => `tool-${i}`);
    const result = await t.repos.preferences.reconcile('files', 'tool', many, true);
    expect(result.size).toBe(1500);
    expect(await t.repos.preferences.setEnabled('files', 'tool', many, false)).toBe(1500);
  });

  it('setEnabled upserts: a key may be switched before it was ever listed', async () => {
    t.clock.advance(HOUR);
    expect(await t.repos.preferences.isEnabled('files', 'tool', 'later')).toBeUndefined();
    expect(await t.repos.preferences.setEnabled('files', 'tool', ['later'], false)).toBe(1);
    expect(await t.repos.preferences.isEnabled('files', 'tool', 'later')).toBe(false);
    expect(await t.repos.preferences.list('files')).toEqual([
      {
        server: 'files',
        type: 'tool',
        key: 'later',
        enabled: false,
        first_seen_at: T1,
        last_seen_at: T1,
      },
    ]);
    // Listing it later does not override the choice, even with auto-enable on.
    const result = await t.repos.preferences.reconcile('files', 'tool', ['later'], true);
    expect(result.get('later')).toBe(false);
  });

  it('setEnabled counts only rows inserted or actually flipped', async () => {
    await t.repos.preferences.reconcile('files', 'tool', ['a', 'b'], true);
    expect(await t.repos.preferences.setEnabled('files', 'tool', ['a', 'b', 'c'], false)).toBe(3);
    expect(await t.repos.preferences.setEnabled('files', 'tool', ['a', 'b', 'c'], false)).toBe(0);
    expect(await t.repos.preferences.setEnabled('files', 'tool', ['a'], true)).toBe(1);
    expect(await t.repos.preferences.isEnabled('files', 'tool', 'a')).toBe(true);
    expect(await t.repos.preferences.isEnabled('files', 'tool', 'b')).toBe(false);
  });

  it('answers SERVER_NOT_FOUND for writes and lists of an unknown server', async () => {
    const notFound = { code: 'SERVER_NOT_FOUND', message: 'No server named "ghost"' };
    await expect(t.repos.preferences.reconcile('ghost', 'tool', ['a'], true)).rejects.toMatchObject(
      notFound,
    );
    await expect(
      t.repos.preferences.setEnabled('ghost', 'tool', ['a'], true),
    ).rejects.toMatchObject(notFound);
    await expect(t.repos.preferences.list('ghost')).rejects.toMatchObject(notFound);
    expect(await t.repos.preferences.isEnabled('ghost', 'tool', 'a')).toBeUndefined();
  });

  it('reconciles in one transaction: concurrent calls interleave without loss', async () => {
    await t.repos.servers.create(
      serverDefinitionSchema.parse({ name: 'other', transport: 'stdio', command: 'x' }),
    );
    await Promise.all([
      t.repos.preferences.reconcile('files', 'tool', ['a', 'b'], true),
      t.repos.preferences.setEnabled('files', 'tool', ['b'], false),
      t.repos.preferences.reconcile('other', 'resource', ['file:///x'], false),
      t.repos.preferences.reconcile('files', 'resource_template', ['file:///{path}'], true),
    ]);
    expect(await t.repos.preferences.list('files')).toHaveLength(3);
    expect(await t.repos.preferences.list('other')).toHaveLength(1);
  });
});
