import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rawSseSession } from '../../../bench/raw-sse-session.js';

/**
 * A loopback HTTP+SSE server that answers like an SDK server: `result` before `id`, CRLF
 * line ends, a notification and a stray answer in between, answers out of order.
 */
function sseServer(): Promise<{ url: string; posted: unknown[]; server: Server }> {
  const posted: unknown[] = [];
  let stream: ServerResponse | undefined;
  const held: string[] = [];
  const server = createServer((req, res) => {
    if (req.method === 'GET') {
      stream = res;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: endpoint\r\ndata: /messages?sessionId=abc\r\n\r\n');
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as { id?: number; method: string };
      posted.push({ url: req.url, ...message });
      res.writeHead(202).end('Accepted');
      if (message.id === undefined) return;
      const answer = `{"result":{"echo":"${message.method}","id":99},"jsonrpc":"2.0","id":${message.id}}`;
      stream?.write('event: message\ndata: {"method":"notifications/message","jsonrpc":"2.0"}\n\n');
      // The second call's answer is held back and sent after the third's.
      if (message.id === 2) return void held.push(answer);
      stream?.write(`event: message\ndata: ${answer}\n\n`);
      for (const late of held.splice(0)) stream?.write(`event: message\ndata: ${late}\n\n`);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/mcp`, posted, server });
    }),
  );
}

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

describe('rawSseSession', () => {
  it('initializes, posts to the endpoint the stream names and matches answers by id', async () => {
    const started = await sseServer();
    server = started.server;
    const session = await rawSseSession(started.url);
    const [first, second] = await Promise.all([
      session.request('tools/list', {}),
      session.request('tools/call', { name: 'echo' }),
    ]);
    session.close();
    expect(JSON.parse(first.toString())).toMatchObject({ id: 2, result: { echo: 'tools/list' } });
    expect(JSON.parse(second.toString())).toMatchObject({ id: 3, result: { echo: 'tools/call' } });
    expect(started.posted).toEqual([
      expect.objectContaining({ url: '/messages?sessionId=abc', method: 'initialize', id: 1 }),
      expect.objectContaining({ method: 'notifications/initialized' }),
      expect.objectContaining({ method: 'tools/list', id: 2 }),
      expect.objectContaining({ method: 'tools/call', id: 3 }),
    ]);
  });

  it('fails a request still waiting when the event stream closes', async () => {
    const started = await sseServer();
    server = started.server;
    const session = await rawSseSession(started.url);
    // The server holds back the answer to id 2 (the first request after initialize).
    const waiting = session.request('tools/list', {});
    await expect.poll(() => started.posted.length).toBe(3);
    server.closeAllConnections();
    await expect(waiting).rejects.toThrow('the event stream closed');
    await expect(session.request('ping', {})).rejects.toThrow();
    session.close();
  });

  it('fails with the status when the stream cannot be opened', async () => {
    server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await expect(rawSseSession(`http://127.0.0.1:${port}/mcp`)).rejects.toThrow('HTTP 404');
  });
});
