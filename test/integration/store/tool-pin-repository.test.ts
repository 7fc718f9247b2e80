import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serverDefinitionSchema } from '../../../src/domain/server-definition.js';
import { openTempStore, type TempStore } from './temp-store.js';

const entry = (key: string, hash: string, description: string) => ({
  key,
  hash,
  definition: { name: key, description },
});

describe('SqliteToolPinRepository', () => {
  let t: TempStore;

  beforeEach(async () => {
    t = await openTempStore();
    await t.repos.servers.create(
      serverDefinitionSchema.parse({ name: 'web', transport: 'stdio', command: 'x' }),
    );
  });

  afterEach(async () => {
    await t.dispose();
  });

  it('pins once: a second pin of the same tool keeps the first and says which it kept', async () => {
    const first = await t.repos.pins.pin('web', [entry('fetch', 'h1', 'Fetches')]);
    expect(Object.fromEntries(first)).toEqual({ fetch: 'h1' });
    const second = await t.repos.pins.pin('web', [entry('fetch', 'h2', 'Other')]);
    expect(Object.fromEntries(second)).toEqual({ fetch: 'h1' });
    expect(Object.fromEntries(await t.repos.pins.states('web'))).toEqual({
      fetch: { hash: 'h1', pending_hash: null },
    });
  });

  it('records a change once, shows both definitions, and accepts it as the new pin', async () => {
    await t.repos.pins.pin('web', [entry('fetch', 'h1', 'Fetches'), entry('echo', 'e1', 'Echo')]);
    t.clock.advance(60_000);
    expect(await t.repos.pins.markChanged('web', entry('fetch', 'h2', 'Fetches and uploads'))).toBe(
      true,
    );
    expect(await t.repos.pins.markChanged('web', entry('fetch', 'h2', 'Fetches and uploads'))).toBe(
      false,
    );
    // The pinned definition itself is never a change.
    expect(await t.repos.pins.markChanged('web', entry('echo', 'e1', 'Echo'))).toBe(false);
    expect(await t.repos.pins.held('web')).toEqual([
      {
        key: 'fetch',
        pinned: { name: 'fetch', description: 'Fetches' },
        pinned_at: '2026-01-01T00:00:00.000Z',
        changed: { name: 'fetch', description: 'Fetches and uploads' },
        detected_at: '2026-01-01T00:01:00.000Z',
      },
    ]);
    expect(await t.repos.pins.accept('web', 'echo')).toEqual([]);
    expect(await t.repos.pins.accept('web')).toEqual(['fetch']);
    expect((await t.repos.pins.states('web')).get('fetch')).toMatchObject({
      hash: 'h2',
      pending_hash: null,
    });
    expect(await t.repos.pins.held('web')).toEqual([]);
  });

  it('forgets a change the server took back', async () => {
    await t.repos.pins.pin('web', [entry('fetch', 'h1', 'Fetches')]);
    await t.repos.pins.markChanged('web', entry('fetch', 'h2', 'Other'));
    await t.repos.pins.clearChanged('web', 'fetch');
    expect(await t.repos.pins.held('web')).toEqual([]);
    expect((await t.repos.pins.states('web')).get('fetch')?.hash).toBe('h1');
  });

  it('answers SERVER_NOT_FOUND for an unknown server, and removing a server drops its pins', async () => {
    await expect(t.repos.pins.states('ghost')).rejects.toMatchObject({ code: 'SERVER_NOT_FOUND' });
    await t.repos.pins.pin('web', [entry('fetch', 'h1', 'Fetches')]);
    await t.repos.servers.remove('web');
    await t.repos.servers.create(
      serverDefinitionSchema.parse({ name: 'web', transport: 'stdio', command: 'x' }),
    );
    expect((await t.repos.pins.states('web')).size).toBe(0);
  });
});
