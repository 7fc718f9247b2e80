import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../../support/running-daemon.js';
import { SocketClient } from '../../support/socket-client.js';
import { pidsWithArg } from '../shim/support/processes.js';

const initialize = (id: number, capabilities: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities,
    clientInfo: { name: 'socket-test', version: '1.0.0' },
  },
});
const isAnswer = (id: number) => (line: { id?: unknown }) => line.id === id;

/** The daemon side of the shim's socket channel, spoken over a real socket (docs/SHIM-SOCKET contract). */
describe('the socket channel', () => {
  let daemon: RunningDaemon;
  let socketPath: string;
  // A marker in the fixture's arguments finds its processes (and only this test's).
  const marker = `socket-channel-${process.pid}`;

  beforeAll(async () => {
    daemon = await startDaemon();
    const record = JSON.parse(readFileSync(join(daemon.home, 'daemon.json'), 'utf8')) as {
      socket?: string;
    };
    socketPath = record.socket ?? '';
    const created = await daemon.api('POST', '/servers', {
      name: 'fx',
      transport: 'stdio',
      command: process.execPath,
      args: [fixture, '--scenario', 'basic', '--name', marker],
    });
    expect(created.status).toBe(201);
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  async function ready(hello: object = {}): Promise<SocketClient> {
    const client = await SocketClient.open(socketPath);
    client.send({ coffer: 'hello', version: 1, token: daemon.token, ...hello });
    await client.next((line) => line.coffer === 'ready');
    return client;
  }

  it('is named in daemon.json, inside the home, private to the user', () => {
    expect(socketPath).toBe(join(daemon.home, 'coffer.sock'));
    expect(statSync(socketPath).isSocket()).toBe(true);
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
  });

  it('refuses a wrong token and closes', async () => {
    const client = await SocketClient.open(socketPath);
    client.send({ coffer: 'hello', version: 1, token: 'not-the-token' });
    const refused = await client.next((line) => line.coffer === 'refused');
    expect(refused).toMatchObject({ code: 'UNAUTHORIZED' });
    await client.ended();
  });

  it('refuses a hello for a server it does not have, or has switched off, and closes', async () => {
    const refusedFor = async (server: string): Promise<unknown> => {
      const client = await SocketClient.open(socketPath);
      client.send({ coffer: 'hello', version: 1, token: daemon.token, server });
      const refused = await client.next((line) => line.coffer === 'refused');
      await client.ended();
      return refused;
    };
    expect(await refusedFor('nope')).toMatchObject({
      code: 'SERVER_NOT_FOUND',
      message: 'No server named "nope"',
      hint: 'see `coffer mcp list` for the registered servers',
    });
    expect((await daemon.api('POST', '/servers/fx/disable')).status).toBe(200);
    try {
      expect(await refusedFor('fx')).toMatchObject({
        code: 'SERVER_DISABLED',
        hint: expect.stringContaining('coffer mcp enable fx') as unknown,
      });
    } finally {
      expect((await daemon.api('POST', '/servers/fx/enable')).status).toBe(200);
    }
  });

  it('reads what a client sent before the ready line once its server is found', async () => {
    const client = await SocketClient.open(socketPath);
    client.send({ coffer: 'hello', version: 1, token: daemon.token, server: 'fx' });
    client.send(initialize(7));
    await client.next((line) => line.coffer === 'ready');
    expect(await client.next(isAnswer(7))).toMatchObject({ result: { serverInfo: {} } });
    client.close();
  });

  it('refuses a bad mode or a mode with a server, with INVALID_INPUT', async () => {
    for (const hello of [{ mode: 'tiny' }, { mode: 'lean', server: 'fx' }, { version: 2 }]) {
      const client = await SocketClient.open(socketPath);
      client.send({ coffer: 'hello', version: 1, token: daemon.token, ...hello });
      expect(await client.next((line) => line.coffer === 'refused')).toMatchObject({
        code: 'INVALID_INPUT',
      });
      await client.ended();
    }
  });

  it('wants initialize first (a ping excepted), then relays a tools/call', async () => {
    const client = await ready();
    client.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect((await client.next(isAnswer(1))).error).toMatchObject({ code: -32000 });
    client.send({ jsonrpc: '2.0', id: 'p', method: 'ping' });
    expect(await client.next((line) => line.id === 'p')).toEqual({
      jsonrpc: '2.0',
      id: 'p',
      result: {},
    });
    client.send(initialize(2));
    const init = await client.next(isAnswer(2));
    expect(init.result.serverInfo.name).toBe('coffer');
    client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    client.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'fx__echo', arguments: { text: 'over the socket' } },
    });
    const call = await client.next(isAnswer(3));
    expect(JSON.stringify(call.result)).toContain('over the socket');
    client.close();
  });

  it('answers 2026-07-28 requests without initialize, each needing its envelope', async () => {
    const client = await ready();
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    client.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } });
    expect((await client.next(isAnswer(1))).result.supportedVersions).toContain('2026-07-28');
    const params = { name: 'fx__echo', arguments: { text: 'stateless line' }, _meta: meta };
    client.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params });
    const call = await client.next(isAnswer(2));
    expect(call.result.resultType).toBe('complete');
    expect(JSON.stringify(call.result.content)).toContain('stateless line');
    client.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect((await client.next(isAnswer(3))).error).toMatchObject({ code: -32022 });
    const old = { ...meta, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' };
    client.send({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: old } });
    const refused = await client.next(isAnswer(4));
    expect(refused.error).toMatchObject({ code: -32022, data: { requested: '2025-11-25' } });
    client.close();
  });

  it('answers a line over 4 MiB with an error and keeps the connection', async () => {
    const client = await ready();
    client.send(`"${'x'.repeat(4 * 1024 * 1024 + 10)}"`);
    const error = await client.next((line) => line.error !== undefined);
    expect(error).toMatchObject({ id: null, error: { code: -32600 } });
    expect(error.error.message).toMatch(/^Message too large/);
    client.send(initialize(1));
    expect((await client.next(isAnswer(1))).result).toBeDefined();
    client.close();
  });

  it('answers a malformed request under its own id, so the client stops waiting', async () => {
    const client = await ready();
    client.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect((await client.next(isAnswer(1))).result).toEqual({});
    client.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: 'not an object' });
    expect(await client.next(isAnswer(2))).toMatchObject({ error: { code: -32600 } });
    client.send({ jsonrpc: '2.0', id: 3, method: 'ping', extra: true });
    expect(await client.next(isAnswer(3))).toMatchObject({ error: { code: -32600 } });
    // A malformed response is answered with id null: its id is one of the client's own.
    client.send({ jsonrpc: '2.0', id: 4, result: 'not an object' });
    const refused = await client.next(
      (line) => line.error !== undefined && line.id !== 2 && line.id !== 3,
    );
    expect(refused).toMatchObject({ id: null, error: { code: -32600 } });
    client.close();
  });

  it('writes progress under the client token before the result', async () => {
    const client = await ready();
    client.send(initialize(1));
    await client.next(isAnswer(1));
    client.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'fx__progress',
        arguments: { count: 3, delay_ms: 1 },
        _meta: { progressToken: 'tok' },
      },
    });
    const result = await client.next(isAnswer(2));
    expect(JSON.stringify(result.result)).toContain('progress done: 3 steps');
    const progress = client.lines.filter(
      (line) => (line as { method?: string }).method === 'notifications/progress',
    ) as { params: { progressToken: unknown; progress: number } }[];
    expect(progress.map((line) => line.params.progress)).toEqual([1, 2, 3]);
    expect(progress.every((line) => line.params.progressToken === 'tok')).toBe(true);
    client.close();
  });

  it('carries a sampling request to the client and its answer back', async () => {
    const client = await ready();
    client.send(initialize(1, { sampling: {} }));
    await client.next(isAnswer(1));
    client.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'fx__sample', arguments: { prompt: 'hi' } },
    });
    const request = await client.next((line) => line.method === 'sampling/createMessage');
    client.send({
      jsonrpc: '2.0',
      id: request.id,
      result: { role: 'assistant', content: { type: 'text', text: 'sampled!' }, model: 'm' },
    });
    const result = await client.next(isAnswer(2));
    expect(JSON.stringify(result.result)).toContain('sampled!');
    client.close();
  });

  it('a cancelled call reaches the upstream as a cancel and is never answered', async () => {
    const client = await ready();
    client.send(initialize(1));
    await client.next(isAnswer(1));
    let id = 100;
    const stats = async (): Promise<{ toolCalls: number; cancelledCalls: number }> => {
      const mine = id++;
      client.send({
        jsonrpc: '2.0',
        id: mine,
        method: 'tools/call',
        params: { name: 'fx__stats', arguments: {} },
      });
      const answer = (await client.next(isAnswer(mine))) as {
        result: { content: [{ text: string }] };
      };
      return JSON.parse(answer.result.content[0].text) as {
        toolCalls: number;
        cancelledCalls: number;
      };
    };
    const before = await stats();
    client.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'fx__hang', arguments: {} },
    });
    // stats counts itself: more than one new call means the hang reached the upstream.
    await eventually(async () =>
      expect((await stats()).toolCalls).toBeGreaterThan(before.toolCalls + 1),
    );
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    await eventually(async () =>
      expect((await stats()).cancelledCalls).toBeGreaterThan(before.cancelledCalls),
    );
    expect(client.lines.filter((line) => (line as { id?: unknown }).id === 2)).toEqual([]);
    client.close();
  });

  it('closing the connection ends the session and its upstream process', async () => {
    const before = new Set(pidsWithArg(marker));
    const client = await ready({ server: 'fx' });
    client.send(initialize(1));
    await client.next(isAnswer(1));
    const mine = await eventually(() => {
      const started = pidsWithArg(marker).filter((pid) => !before.has(pid));
      expect(started.length).toBeGreaterThan(0);
      return started;
    });
    client.close();
    await eventually(() => {
      const alive = new Set(pidsWithArg(marker));
      expect(mine.filter((pid) => alive.has(pid))).toEqual([]);
    });
  });
});
