import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiHarness, errorOf, stdioServer, type ApiHarness } from './api-harness.js';

let api: ApiHarness;
beforeEach(async () => {
  api = await createApiHarness();
  await api.request('POST', '/servers', stdioServer);
  api.services.notifier.events.length = 0;
});
afterEach(async () => {
  await api.close();
});

describe('POST /servers/:name/capabilities', () => {
  it('stores the choice (even for keys never listed) and tells the sessions', async () => {
    const response = await api.request('POST', '/servers/files/capabilities', {
      type: 'tool',
      keys: ['read_file', 'write_file'],
      enabled: false,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ changed: 2 });
    const stored = await api.services.preferences.list('files', 'tool');
    expect(stored.map((p) => [p.key, p.enabled]).sort()).toEqual([
      ['read_file', false],
      ['write_file', false],
    ]);
    expect(api.services.notifier.events).toEqual(['capabilities:files']);

    const again = await api.request('POST', '/servers/files/capabilities', {
      type: 'tool',
      keys: ['read_file'],
      enabled: true,
    });
    expect(await again.json()).toEqual({ changed: 1 });
    expect(await api.services.preferences.isEnabled('files', 'tool', 'read_file')).toBe(true);
  });

  it('keeps resource URIs byte for byte', async () => {
    const uri = 'file:///tmp/a b/ü.txt?x=1#y';
    await api.request('POST', '/servers/files/capabilities', {
      type: 'resource',
      keys: [uri],
      enabled: false,
    });
    expect(await api.services.preferences.isEnabled('files', 'resource', uri)).toBe(false);
  });

  it.each([
    ['an unknown type', { type: 'widget', keys: ['a'], enabled: false }, /^type: /],
    ['no keys', { type: 'tool', keys: [], enabled: false }, /^keys: /],
    ['too many keys', { type: 'tool', keys: Array(1001).fill('k'), enabled: false }, /1000/],
    ['a missing flag', { type: 'tool', keys: ['a'] }, /^enabled: /],
    ['malformed JSON', 'type=tool', /not valid JSON/],
  ])('refuses %s with 400 and stores nothing', async (_label, body, message) => {
    const response = await api.request('POST', '/servers/files/capabilities', body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(message);
    expect(await api.services.preferences.list('files')).toEqual([]);
    expect(api.services.notifier.events).toEqual([]);
  });

  it('answers 404 for an unknown server', async () => {
    const response = await api.request('POST', '/servers/nope/capabilities', {
      type: 'tool',
      keys: ['a'],
      enabled: false,
    });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('SERVER_NOT_FOUND');
  });
});

describe('capabilities, refresh and test of an unknown server', () => {
  it.each([
    ['GET', '/servers/nope/capabilities'],
    ['POST', '/servers/nope/refresh'],
    ['POST', '/servers/nope/test'],
  ])('%s %s answers 404 before asking the catalog', async (method, path) => {
    const response = await api.request(method, path);
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('SERVER_NOT_FOUND');
  });
});
