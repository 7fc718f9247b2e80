import { describe, expect, it } from 'vitest';
import { CofferError } from '../../../src/domain/errors.js';
import {
  serverDefinitionSchema,
  type ServerDefinition,
} from '../../../src/domain/server-definition.js';
import { refusingOwnEndpoint } from '../../../src/gateway/own-endpoint-guard.js';
import { recordingStore } from '../../support/recording-server-store.js';

/** A remote definition with the schema's defaults. */
function remote(url: string): ServerDefinition {
  return serverDefinitionSchema.parse({ name: 'self', transport: 'http', url });
}

describe('refusingOwnEndpoint', () => {
  it('refuses to store this daemon as a server, by create or by update, and stores nothing', async () => {
    const { repository, written } = recordingStore(remote('http://x.test/mcp'));
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
    const { repository, written } = recordingStore(remote('http://x.test/mcp'));
    const servers = refusingOwnEndpoint(repository, 8000);
    await servers.create(remote('http://127.0.0.1:8001/mcp'));
    await servers.update('a', { enabled: false });
    await servers.remove('a');
    expect(written).toEqual(['create self', 'update a', 'remove a']);
  });
});
