import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverDefinitionSchema } from '../../../src/domain/server-definition.js';
import { openTempStore, type TempStore } from './temp-store.js';

describe('SqliteToolPolicyRepository', () => {
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

  it('starts with ask for destructive tools and no tool of its own', async () => {
    const policies = await t.repos.policies.forServer('files');
    expect(policies.destructive).toBe('ask');
    expect([...policies.tools]).toEqual([]);
  });

  it('sets, replaces and forgets a tool policy, and the destructive default', async () => {
    await t.repos.policies.setTool('files', 'delete', 'deny');
    await t.repos.policies.setTool('files', 'delete', 'allow');
    await t.repos.policies.setTool('files', 'move', 'ask');
    await t.repos.policies.setDestructive('files', 'deny');
    let policies = await t.repos.policies.forServer('files');
    expect(policies.destructive).toBe('deny');
    expect(Object.fromEntries(policies.tools)).toEqual({ delete: 'allow', move: 'ask' });
    await t.repos.policies.setTool('files', 'delete', null);
    policies = await t.repos.policies.forServer('files');
    expect(Object.fromEntries(policies.tools)).toEqual({ move: 'ask' });
  });

  it('answers SERVER_NOT_FOUND for an unknown server, and forgets a removed server', async () => {
    await expect(t.repos.policies.forServer('ghost')).rejects.toMatchObject({
      code: 'SERVER_NOT_FOUND',
    });
    await t.repos.policies.setTool('files', 'delete', 'allow');
    await t.repos.servers.remove('files');
    await t.repos.servers.create(
      serverDefinitionSchema.parse({ name: 'files', transport: 'stdio', command: 'x' }),
    );
    expect([...(await t.repos.policies.forServer('files')).tools]).toEqual([]);
  });
});
