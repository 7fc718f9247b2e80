import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiApp } from '../../../src/api/index.js';
import { EventBus } from '../../../src/daemon/event-bus.js';
import { createApiHarness, errorOf, stdioServer, type ApiHarness } from './api-harness.js';
import { sseReader } from '../../support/sse-reader.js';

describe('GET /api/v1/events', () => {
  let harness: ApiHarness;
  let bus: EventBus;
  let app: ReturnType<typeof createApiApp>;

  beforeEach(async () => {
    harness = await createApiHarness();
    bus = new EventBus();
    app = createApiApp({ ...harness.services, events: bus });
  });

  afterEach(async () => {
    bus.close();
    await harness.close();
  });

  const json = (method: string, path: string, body?: unknown) =>
    app.request(`/api/v1${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });

  it('streams ready, then what the routes change', async () => {
    const response = await app.request('/api/v1/events');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = sseReader(response.body!);
    expect(await events.next()).toEqual({ type: 'ready' });

    expect((await json('POST', '/servers', stdioServer)).status).toBe(201);
    expect(await events.next()).toEqual({ type: 'server.added', server: 'files' });
    await json('POST', '/servers/files/disable');
    expect(await events.next()).toEqual({ type: 'server.changed', server: 'files' });
    await json('POST', '/servers/files/capabilities', {
      type: 'tool',
      keys: ['read', 'write'],
      enabled: false,
    });
    expect(await events.next()).toEqual({
      type: 'capability.toggled',
      server: 'files',
      capability_type: 'tool',
      keys: ['read', 'write'],
      enabled: false,
    });
    await json('PATCH', '/servers/files', { args: [] });
    expect(await events.next()).toEqual({ type: 'server.changed', server: 'files' });
    await json('DELETE', '/servers/files');
    expect(await events.next()).toEqual({ type: 'server.removed', server: 'files' });
    await events.cancel();
  });

  it('announces nothing for a refused change', async () => {
    const events = sseReader((await app.request('/api/v1/events')).body!);
    await events.next();
    expect((await json('POST', '/servers', { name: 'Bad Name', transport: 'stdio' })).status).toBe(
      400,
    );
    bus.emit({ type: 'server.removed', server: 'marker' });
    expect(await events.next()).toEqual({ type: 'server.removed', server: 'marker' });
    await events.cancel();
  });

  it('unsubscribes when the client leaves, and ends when the daemon closes', async () => {
    const first = sseReader((await app.request('/api/v1/events')).body!);
    await first.next();
    expect(bus.size).toBe(1);
    await first.cancel();
    await expect.poll(() => bus.size).toBe(0);

    const second = sseReader((await app.request('/api/v1/events')).body!);
    await second.next();
    bus.close();
    await expect(second.next()).rejects.toThrow('stream ended');
  });

  it('answers 404 where the daemon sends no events', async () => {
    const response = await harness.request('GET', '/events');
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('NOT_FOUND');
  });
});
