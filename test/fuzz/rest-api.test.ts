import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type RunningDaemon } from '../support/running-daemon.js';
import { expectRestAnswer } from './support/answer-shapes.js';
import {
  expectDaemonServing,
  expectNoPrototypePollution,
  RSS_GROWTH_BOUND_KB,
  rssKb,
} from './support/daemon-checks.js';
import { fuzzLog, fuzzSettings, propertyParameters } from './support/fuzz-settings.js';
import { contentType } from './support/hostile-json.js';
import { restPath, restRequest } from './support/hostile-rest.js';
import { rawRequest, type RawResponse } from './support/raw-request.js';

/**
 * The REST API under hostile input, on a real daemon (secrets in the file backend):
 * every answer is a 2xx or a JSON error whose stable code maps to its status, never a
 * 5xx; what a 2xx accepted is what was sent (no key silently dropped); the daemon stays
 * up with bounded memory and a clean Object.prototype.
 */
const settings = fuzzSettings();
const REST_LIMIT = 1024 * 1024;

type Json = Record<string, unknown>;

/** A created server holds every env/header key and every arg that was sent. */
function expectNothingDropped(sent: Buffer, answer: RawResponse): void {
  if (answer.status !== 201) return;
  const request = JSON.parse(sent.toString('utf8')) as Json;
  const server = (JSON.parse(answer.body) as { server: Json }).server;
  for (const field of ['env', 'headers'] as const) {
    const given = (request[field] ?? {}) as Json;
    expect(Object.keys(server[field] as Json).sort(), `${field} of ${sent.toString()}`).toEqual(
      Object.keys(given).sort(),
    );
  }
  expect(server['args'], `args of ${sent.toString()}`).toEqual(request['args'] ?? []);
}

describe('fuzzing the REST API', () => {
  let daemon: RunningDaemon;
  let rssBefore = 0;

  const send = (method: string, path: string, headers: Record<string, string>, body?: Buffer) =>
    rawRequest({
      port: daemon.port,
      method,
      path,
      headers: {
        host: `127.0.0.1:${daemon.port}`,
        authorization: `Bearer ${daemon.token}`,
        ...headers,
      },
      ...(body === undefined ? {} : { body }),
    });

  beforeAll(async () => {
    daemon = await startDaemon({ COFFER_KEYCHAIN: 'file' });
    const added = await daemon.api('POST', '/servers', {
      name: 'target',
      transport: 'stdio',
      command: 'true',
    });
    expect(added.status).toBe(201);
    rssBefore = rssKb(daemon.pid);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  it('servers, preferences, secrets: stable JSON errors, never a 5xx, nothing dropped', async () => {
    await fc.assert(
      fc.asyncProperty(restRequest, contentType, async ({ method, path, body }, type) => {
        const answer = await send(
          method,
          `/api/v1${path}`,
          type === '' ? {} : { 'content-type': type },
          body,
        );
        expectRestAnswer(answer, `${method} ${path} ${body.toString('utf8').slice(0, 200)}`);
        if (path === '/servers' && method === 'POST') expectNothingDropped(body, answer);
      }),
      propertyParameters('REST bodies', settings, settings.numRuns * 2),
    );
    await expectDaemonServing(daemon);
  });

  it('any method on any path: stable JSON errors, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(restPath, async ({ method, path }) => {
        const answer = await send(method, path, {});
        expectRestAnswer(answer, `${method} ${path}`);
      }),
      propertyParameters('REST paths', settings),
    );
    await expectDaemonServing(daemon);
  });

  it.each([
    ['POST', '/servers'],
    ['PATCH', '/servers/target'],
    ['POST', '/servers/target/capabilities'],
    ['POST', '/secrets'],
    ['POST', '/servers/target/enable'],
  ])('%s %s: 413 for a body over the limit, streamed or declared', async (method, path) => {
    const over = Buffer.alloc(REST_LIMIT + 1, 0x20);
    const json = { 'content-type': 'application/json' };
    const declared = await send(method, `/api/v1${path}`, json, over);
    expectRestAnswer(declared, `${method} ${path} declared`);
    expect(declared.status).toBe(413);
    if (path.endsWith('/enable')) return; // no body read: only the declared length counts
    const streamed = await send(
      method,
      `/api/v1${path}`,
      { ...json, 'transfer-encoding': 'chunked' },
      over,
    );
    expectRestAnswer(streamed, `${method} ${path} streamed`);
    expect(streamed.status).toBe(413);
  });

  it('refuses __proto__ keys, deep nesting and invalid UTF-8 with INVALID_INPUT, not silence', async () => {
    const bodies = [
      '{"name":"p1","transport":"stdio","command":"true","env":{"__proto__":{"A":"1"}}}',
      '{"name":"p2","transport":"http","url":"http://127.0.0.1:1/","headers":{"__proto__":"x"}}',
      `{"name":"p3","transport":"stdio","command":"true","args":${'['.repeat(500)}${']'.repeat(500)}}`,
    ].map((text) => Buffer.from(text));
    bodies.push(
      Buffer.from([
        ...Buffer.from('{"name":"p4","transport":"stdio","command":"tr'),
        0xff,
        ...Buffer.from('ue"}'),
      ]),
    );
    for (const body of bodies) {
      const answer = await send(
        'POST',
        '/api/v1/servers',
        { 'content-type': 'application/json' },
        body,
      );
      expectRestAnswer(answer, body.toString('utf8').slice(0, 100));
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    }
    const listed = (await daemon.api('GET', '/servers')).body as {
      servers: Array<{ name: string }>;
    };
    expect(listed.servers.map((server) => server.name)).not.toContain('p1');
  });

  it('keeps memory bounded and Object.prototype clean', async () => {
    await expectDaemonServing(daemon);
    await expectNoPrototypePollution(daemon);
    const grown = rssKb(daemon.pid) - rssBefore;
    fuzzLog(`REST daemon RSS growth: ${Math.round(grown / 1024)} MB`);
    expect(grown).toBeLessThan(RSS_GROWTH_BOUND_KB);
  });
});
