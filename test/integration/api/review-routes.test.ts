import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiHarness, errorOf, stdioServer, type ApiHarness } from './api-harness.js';

/**
 * /servers/:name/reviews over the real store: held-back tools with both definitions and
 * their diff, accepting one or all, what is told to sessions, and the refusals. The
 * detection itself (a live list) is the e2e test's (test/e2e/safety/pinning.test.ts).
 */
describe('the review routes', () => {
  let api: ApiHarness;

  beforeEach(async () => {
    api = await createApiHarness();
    expect((await api.request('POST', '/servers', stdioServer)).status).toBe(201);
    const pins = api.services.pins;
    await pins?.pin('files', [
      { key: 'read', hash: 'r1', definition: { name: 'read', description: 'Reads' } },
      { key: 'write', hash: 'w1', definition: { name: 'write', description: 'Writes' } },
    ]);
    await pins?.markChanged('files', {
      key: 'read',
      hash: 'r2',
      definition: { name: 'read', description: 'Reads, and mails it' },
    });
    await pins?.markChanged('files', {
      key: 'write',
      hash: 'w2',
      definition: { name: 'write', description: 'Writes anywhere' },
    });
    api.services.notifier.events.splice(0);
  });

  afterEach(async () => {
    await api.close();
  });

  it('lists held-back tools with both definitions and a removed-then-added diff', async () => {
    const response = await api.request('GET', '/servers/files/reviews');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      tools: { key: string; pinned: object; changed: object; diff: object[] }[];
    };
    expect(body.tools.map((tool) => tool.key)).toEqual(['read', 'write']);
    expect(body.tools[0]).toMatchObject({
      pinned: { description: 'Reads' },
      changed: { description: 'Reads, and mails it' },
    });
    expect(body.tools[0]?.diff).toEqual([
      { op: ' ', text: '{' },
      { op: '-', text: '  "description": "Reads",' },
      { op: '+', text: '  "description": "Reads, and mails it",' },
      { op: ' ', text: '  "name": "read"' },
      { op: ' ', text: '}' },
    ]);
  });

  it('accepts one, then the rest, telling sessions each time', async () => {
    const one = await api.request('POST', '/servers/files/reviews', { tool: 'read' });
    expect(await one.json()).toEqual({ server: 'files', accepted: ['read'] });
    expect(api.services.notifier.events).toEqual(['capabilities:files']);
    const rest = await api.request('POST', '/servers/files/reviews', {});
    expect(await rest.json()).toEqual({ server: 'files', accepted: ['write'] });
    const none = await api.request('POST', '/servers/files/reviews', {});
    expect(await none.json()).toEqual({ server: 'files', accepted: [] });
    // Nothing accepted, nothing to tell.
    expect(api.services.notifier.events).toEqual(['capabilities:files', 'capabilities:files']);
  });

  it('refuses an unknown tool, a bad body and an unknown server with their codes', async () => {
    const unknown = await api.request('POST', '/servers/files/reviews', { tool: 'rm' });
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({
      code: 'NOT_FOUND',
      hint: expect.stringContaining('coffer mcp review files') as unknown,
    });
    const bad = await api.request('POST', '/servers/files/reviews', { tool: 'read', all: true });
    expect(bad.status).toBe(400);
    const ghost = await api.request('GET', '/servers/ghost/reviews');
    expect(ghost.status).toBe(404);
    expect((await errorOf(ghost)).code).toBe('SERVER_NOT_FOUND');
  });
});
