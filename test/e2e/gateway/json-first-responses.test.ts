import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../../support/running-daemon.js';

const BOTH = 'application/json, text/event-stream';

/**
 * Coffer's /mcp answers a POST with plain JSON unless something must reach the client
 * before the answer, and keeps the Streamable HTTP contract (status codes, session
 * headers, the GET stream, DELETE). Raw HTTP, so the wire format itself is checked.
 */
describe('/mcp responses: JSON first, SSE when needed', () => {
  let daemon: RunningDaemon;
  let session: string;

  /** One HTTP request; a header given as '' is left out. */
  const send = (body: unknown, headers: Record<string, string> = {}, method = 'POST') => {
    const all: Record<string, string> = {
      authorization: `Bearer ${daemon.token}`,
      'content-type': 'application/json',
      accept: BOTH,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    };
    return fetch(`${daemon.baseUrl}/mcp`, {
      method,
      headers: Object.fromEntries(Object.entries(all).filter(([, value]) => value !== '')),
      ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
    });
  };

  const request = (id: number, method: string, params: unknown = {}) => ({
    jsonrpc: '2.0',
    id,
    method,
    params,
  });

  beforeAll(async () => {
    daemon = await startDaemon();
    await daemon.api('POST', '/servers', {
      name: 'fixture',
      transport: 'stdio',
      command: process.execPath,
      args: [fixture],
    });
    session = await openSession();
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  async function openSession(): Promise<string> {
    const init = await send(
      request(0, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      }),
      { 'mcp-session-id': '' },
    );
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toBe('application/json');
    const id = init.headers.get('mcp-session-id')!;
    await init.json();
    const initialized = await send(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'mcp-session-id': id },
    );
    expect(initialized.status).toBe(202);
    expect(await initialized.text()).toBe('');
    return id;
  }

  it('answers a call with one application/json body carrying the session id', async () => {
    const response = await send(
      request(1, 'tools/call', { name: 'fixture__echo', arguments: { text: 'plain' } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('mcp-session-id')).toBe(session);
    const message = (await response.json()) as { id: number; result: { content: unknown[] } };
    expect(message.id).toBe(1);
    expect(JSON.stringify(message.result.content)).toContain('plain');
  });

  it('switches to SSE when progress comes before the answer, and ends the stream after it', async () => {
    const response = await send(
      request(2, 'tools/call', {
        name: 'fixture__progress',
        arguments: { count: 3, delay_ms: 10 },
        _meta: { progressToken: 'tok' },
      }),
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { id?: number; method?: string });
    const progress = events.filter((event) => event.method === 'notifications/progress');
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(events.at(-1)?.id).toBe(2);
  });

  it('answers a batch with an array in request order', async () => {
    const response = await send([request(3, 'ping'), request(4, 'tools/list')]);
    const answers = (await response.json()) as { id: number }[];
    expect(answers.map((answer) => answer.id)).toEqual([3, 4]);
  });

  it('refuses what the transport contract refuses, with the same statuses', async () => {
    expect((await send(request(5, 'ping'), { accept: 'application/json' })).status).toBe(406);
    expect((await send(request(6, 'ping'), { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await send({ jsonrpc: '2.0', id: 7 })).status).toBe(400);
    const badVersion = await send(request(8, 'ping'), { 'mcp-protocol-version': '1999-01-01' });
    expect(badVersion.status).toBe(400);
    const again = await send(
      request(9, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      }),
    );
    expect(again.status).toBe(400);
  });

  it('holds one GET stream per session, and DELETE ends the session', async () => {
    const own = await openSession();
    const stream = await send(
      undefined,
      { 'mcp-session-id': own, accept: 'text/event-stream' },
      'GET',
    );
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const second = await send(
      undefined,
      { 'mcp-session-id': own, accept: 'text/event-stream' },
      'GET',
    );
    expect(second.status).toBe(409);
    const deleted = await send(undefined, { 'mcp-session-id': own }, 'DELETE');
    expect(deleted.status).toBe(200);
    // The GET stream ends with the session.
    expect(await stream.text()).toBe('');
    const gone = await send(request(10, 'ping'), { 'mcp-session-id': own });
    expect(gone.status).toBe(404);
    // The SDK's own transport's code for it, which clients know.
    expect(((await gone.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });
});
