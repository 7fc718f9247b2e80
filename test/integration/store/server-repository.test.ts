import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import {
  serverDefinitionSchema,
  type ServerDefinitionInput,
} from '../../../src/domain/server-definition.js';
import { openTempStore, type TempStore } from './temp-store.js';

function definition(input: Partial<ServerDefinitionInput> & { name: string }) {
  return serverDefinitionSchema.parse({ transport: 'stdio', command: 'npx', ...input });
}

describe('SqliteServerRepository', () => {
  let t: TempStore;

  beforeEach(async () => {
    t = await openTempStore();
  });

  afterEach(async () => {
    await t.dispose();
  });

  it('creates and reads back a stdio server, optional fields absent rather than null', async () => {
    const created = await t.repos.servers.create(
      definition({ name: 'files', args: ['-y', 'server-files'], env: { ROOT: '/tmp' } }),
    );
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'files',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'server-files'],
      env: { ROOT: '/tmp' },
      headers: {},
      secret_env: [],
      secret_headers: [],
      enabled: true,
      auto_enable_new_capabilities: true,
      shared: false,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    expect('cwd' in created).toBe(false);
    expect('url' in created).toBe(false);
    expect(await t.repos.servers.get('files')).toEqual(created);
  });

  it('round-trips an http server with headers and secret references', async () => {
    const created = await t.repos.servers.create(
      definition({
        name: 'remote',
        transport: 'http',
        command: undefined,
        url: 'https://example.com/mcp',
        headers: { 'X-Team': 'a' },
        secret_headers: ['Authorization'],
        secret_env: ['API_KEY'],
        enabled: false,
        auto_enable_new_capabilities: false,
      }),
    );
    expect(await t.repos.servers.get('remote')).toEqual(created);
    expect(created).toMatchObject({ enabled: false, auto_enable_new_capabilities: false });
    expect('command' in created).toBe(false);
  });

  it('keeps shared (opt-in) through create, update and read back', async () => {
    const created = await t.repos.servers.create(definition({ name: 'fetch', shared: true }));
    expect(created.shared).toBe(true);
    expect(await t.repos.servers.get('fetch')).toEqual(created);
    const unshared = await t.repos.servers.update('fetch', { shared: false });
    expect(unshared.shared).toBe(false);
    expect((await t.repos.servers.get('fetch'))?.shared).toBe(false);
    await t.repos.servers.update('fetch', { shared: true });
    expect((await t.repos.servers.list()).map((s) => [s.name, s.shared])).toEqual([
      ['fetch', true],
    ]);
  });

  it('lists servers by name and answers undefined for an unknown one', async () => {
    await t.repos.servers.create(definition({ name: 'zeta' }));
    await t.repos.servers.create(definition({ name: 'alpha' }));
    expect((await t.repos.servers.list()).map((s) => s.name)).toEqual(['alpha', 'zeta']);
    expect(await t.repos.servers.get('nope')).toBeUndefined();
  });

  it('refuses a duplicate name with SERVER_EXISTS, not a raw SQLite error', async () => {
    await t.repos.servers.create(definition({ name: 'files' }));
    const error: unknown = await t.repos.servers
      .create(definition({ name: 'files' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CofferError);
    expect(error).toMatchObject({
      code: 'SERVER_EXISTS',
      message: 'A server named "files" already exists',
      hint: 'choose another name, or change this one with `coffer mcp edit files`, which keeps its tool choices (`coffer mcp remove files` forgets them)',
    });
    expect((error as Error).message).not.toMatch(/SQLITE|constraint|mcp_servers/i);
  });

  it('updates a server, bumping updated_at only', async () => {
    await t.repos.servers.create(definition({ name: 'files', cwd: '/srv' }));
    t.clock.advance(60_000);
    const updated = await t.repos.servers.update('files', { args: ['--verbose'], enabled: false });
    expect(updated).toMatchObject({
      args: ['--verbose'],
      enabled: false,
      cwd: '/srv',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:01:00.000Z',
    });
    expect(await t.repos.servers.get('files')).toEqual(updated);
  });

  it('clears an optional field given as undefined, and can change transport', async () => {
    await t.repos.servers.create(definition({ name: 'files', cwd: '/srv' }));
    const cleared = await t.repos.servers.update('files', { cwd: undefined });
    expect('cwd' in cleared).toBe(false);
    const moved = await t.repos.servers.update('files', {
      transport: 'http',
      command: undefined,
      url: 'http://127.0.0.1:9000/mcp',
    });
    expect(moved).toMatchObject({ transport: 'http', url: 'http://127.0.0.1:9000/mcp' });
    expect('command' in moved).toBe(false);
  });

  it('refuses an update that leaves an invalid definition, and keeps the old one', async () => {
    const created = await t.repos.servers.create(definition({ name: 'files' }));
    await expect(t.repos.servers.update('files', { transport: 'http' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(await t.repos.servers.get('files')).toEqual(created);
  });

  it('refuses an invalid name on create', async () => {
    const bad = { ...definition({ name: 'ok' }), name: 'Bad__Name' };
    await expect(t.repos.servers.create(bad)).rejects.toMatchObject({
      code: 'INVALID_SERVER_NAME',
    });
  });

  it('answers SERVER_NOT_FOUND to update and remove of an unknown server', async () => {
    for (const attempt of [
      t.repos.servers.update('ghost', { enabled: false }),
      t.repos.servers.remove('ghost'),
    ]) {
      await expect(attempt).rejects.toMatchObject({
        code: 'SERVER_NOT_FOUND',
        message: 'No server named "ghost"',
        hint: expect.stringContaining('coffer mcp list'),
      });
    }
  });

  it('removes a server and, with it, its preferences (ON DELETE CASCADE)', async () => {
    await t.repos.servers.create(definition({ name: 'files' }));
    await t.repos.servers.create(definition({ name: 'other' }));
    await t.repos.preferences.reconcile('files', 'tool', ['read', 'write'], true);
    await t.repos.preferences.reconcile('other', 'tool', ['read'], true);

    await t.repos.servers.remove('files');

    expect(await t.repos.servers.get('files')).toBeUndefined();
    const left = await t.store.db
      .selectFrom('mcp_capability_preferences')
      .select('capability_key')
      .execute();
    expect(left).toEqual([{ capability_key: 'read' }]);
    // A server added again under the same name starts with no preferences.
    await t.repos.servers.create(definition({ name: 'files' }));
    expect(await t.repos.preferences.list('files')).toEqual([]);
  });

  it('reports a row edited into unreadable JSON as STORE_FAILURE naming the server', async () => {
    await t.repos.servers.create(definition({ name: 'files' }));
    await t.store.db.updateTable('mcp_servers').set({ args: '{oops' }).execute();
    await expect(t.repos.servers.get('files')).rejects.toMatchObject({
      code: 'STORE_FAILURE',
      message: 'The stored args of server "files" is unreadable',
      hint: 'remove it with `coffer mcp remove files` and add it again',
    });
    // The hint's way out works on the unreadable row.
    await t.repos.servers.remove('files');
    await expect(t.repos.servers.get('files')).resolves.toBeUndefined();
  });
});
