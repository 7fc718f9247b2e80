import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonFirstTransport } from '../../../src/gateway/json-first-transport.js';
import { rawRequest, type RawResponse } from '../../fuzz/support/raw-request.js';

/**
 * Answers go to the POST by request id: an id reused while its request is in flight must
 * not take the first POST's answer and leave that POST open forever.
 */
describe('JsonFirstTransport, a request id in flight', () => {
  let server: Server;
  let port: number;
  let transport: JsonFirstTransport;
  let received: JSONRPCMessage[];
  let arrived: (() => void) | undefined;

  beforeEach(async () => {
    received = [];
    transport = new JsonFirstTransport({ sessionIdGenerator: () => 'session-1' });
    transport.onmessage = (message) => {
      received.push(message);
      arrived?.();
    };
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        void transport.handleRequest(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const { answer: init } = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    });
    await transport.send({ jsonrpc: '2.0', id: 0, result: {} });
    expect((await init).status).toBe(200);
  });

  afterEach(async () => {
    await transport.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /**
   * POSTs `body`; resolves, with the answer still to come, once the transport has handed
   * on a message or answered (an async function would flatten a bare promise).
   */
  async function post(body: unknown): Promise<{ answer: Promise<RawResponse> }> {
    const before = received.length;
    const delivered = new Promise<void>((resolve) => (arrived = resolve));
    const answer = rawRequest({
      port,
      method: 'POST',
      path: '/mcp',
      headers: {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-session-id': 'session-1',
      },
      body: JSON.stringify(body),
      timeoutMs: 5_000,
    });
    await Promise.race([delivered, answer]);
    if (received.length === before) await answer;
    return { answer };
  }

  const call = (id: string | number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'slow', arguments: {} },
  });

  it('refuses a second request under an id in flight at once, and answers the first', async () => {
    const { answer: first } = await post(call('dup2'));
    const second = await (await post(call('dup2'))).answer;
    expect(second.status).toBe(400);
    expect(JSON.parse(second.body)).toEqual({
      jsonrpc: '2.0',
      id: 'dup2',
      error: { code: -32600, message: expect.stringContaining('in use by a request in flight') },
    });
    expect(received.filter((m) => 'id' in m && m.id === 'dup2')).toHaveLength(1);
    await transport.send({ jsonrpc: '2.0', id: 'dup2', result: { content: [] } });
    const answered = await first;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toEqual({
      jsonrpc: '2.0',
      id: 'dup2',
      result: { content: [] },
    });
  });

  it('takes the id again once its request is answered', async () => {
    const { answer: first } = await post(call(7));
    await transport.send({ jsonrpc: '2.0', id: 7, result: {} });
    expect((await first).status).toBe(200);
    const { answer: again } = await post(call(7));
    await transport.send({ jsonrpc: '2.0', id: 7, result: { again: true } });
    expect(JSON.parse((await again).body)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { again: true },
    });
  });

  it('still answers a duplicate id inside one batch', async () => {
    const { answer: batch } = await post([call(5), call(5)]);
    expect(received.filter((m) => 'id' in m && m.id === 5)).toHaveLength(2);
    await transport.send({ jsonrpc: '2.0', id: 5, result: {} });
    const answered = await batch;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toContainEqual({ jsonrpc: '2.0', id: 5, result: {} });
  });
});
