import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import type { ServerRepository } from '../../../src/domain/ports.js';
import {
  serverDefinitionSchema,
  type ServerDefinition,
  type ServerRecord,
} from '../../../src/domain/server-definition.js';
import { refusingOwnEndpoint } from '../../../src/gateway/own-endpoint-guard.js';

/** A remote definition with the schema's defaults. */
function remote(url: string): ServerDefinition {
  return serverDefinitionSchema.parse({ name: 'self', transport: 'http', url });
}

/** A store that records what reached it. */
function store(): { repository: ServerRepository; written: string[] } {
  const written: string[] = [];
  const record = (definition: Partial<ServerDefinition>) =>
    ({
      ...remote('http://x.test/mcp'),
      ...definition,
      id: 1,
      created_at: '',
      updated_at: '',
    }) as ServerRecord;
  const repository: ServerRepository = {
    list: () => Promise.resolve([]),
    get: () => Promise.resolve(undefined),
    create: (definition) => (
      written.push(`create ${definition.name}`),
      Promise.resolve(record(definition))
    ),
    update: (name, patch) => (written.push(`update ${name}`), Promise.resolve(record(patch))),
    remove: (name) => (written.push(`remove ${name}`), Promise.resolve()),
  };
  return { repository, written };
}

describe('refusingOwnEndpoint', () => {
  it('refuses to store this daemon as a server, by create or by update, and stores nothing', async () => {
    const { repository, written } = store();
    const servers = refusingOwnEndpoint(repository, 8000);
    const created = await servers
      .create(remote('http://localhost:8000/mcp'))
      .catch((e: unknown) => e);
    expect(created).toBeInstanceOf(CofferError);
    expect(created).toMatchObject({
      code: 'INVALID_INPUT',
      hint: expect.stringContaining('coffer agents import'),
    });
    const updated = await servers
      .update('a', { url: 'http://127.0.0.1:8000/' })
      .catch((e: unknown) => e);
    expect(updated).toMatchObject({ code: 'INVALID_INPUT' });
    expect(written).toEqual([]);
  });

  it('passes every other definition and change through', async () => {
    const { repository, written } = store();
    const servers = refusingOwnEndpoint(repository, 8000);
    await servers.create(remote('http://127.0.0.1:8001/mcp'));
    await servers.update('a', { enabled: false });
    await servers.remove('a');
    expect(written).toEqual(['create self', 'update a', 'remove a']);
  });
});
