import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/domain/ports.js';
import { serverDefinitionSchema } from '../../../src/domain/server-definition.js';
import { openDatabase, type Store } from '../../../src/store/database.js';
import { createRepositories } from '../../../src/store/repositories.js';

const clock: Clock = { now: () => new Date('2026-02-03T04:05:06.000Z') };

// `:memory:` gives unit tests of other layers a real, migrated store without files.
describe('an in-memory store', () => {
  let store: Store;

  beforeEach(async () => {
    store = await openDatabase(':memory:');
  });

  afterEach(async () => {
    await store.close();
  });

  it('is migrated and usable, with foreign keys enforced', async () => {
    const repos = createRepositories(store, clock);
    await repos.servers.create(
      serverDefinitionSchema.parse({ name: 'files', transport: 'stdio', command: 'x' }),
    );
    await repos.preferences.reconcile('files', 'tool', ['read'], false);
    await repos.servers.remove('files');
    const rows = await store.db.selectFrom('mcp_capability_preferences').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('closes idempotently', async () => {
    await store.close();
    await expect(store.close()).resolves.toBeUndefined();
  });
});
