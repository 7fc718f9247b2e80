import { getEventListeners, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { networkProblem } from '../../../src/upstream/network-problem.js';
import { nodeHttpFetch } from '../../../src/upstream/node-http-fetch.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
});

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** A loopback server; its URL, and every socket it accepted. */
async function serve(handler: Handler) {
  const server = createServer((req, res) => void handler(req, res));
  const sockets: Socket[] = [];
  server.on('connection', (socket: Socket) => sockets.push(socket));
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, sockets };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

const post = (body: string, extra: RequestInit = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'mcp-session-id': 's1' },
  body,
  ...extra,
});

/** A fallback that must not be reached. */
const noFallback: FetchLike = (url) => Promise.reject(new Error(`fell back for ${String(url)}`));

describe('fetch on node:http for the messages POSTed to a remote upstream', () => {
  it('sends the body and headers and answers with status, headers and body, on one kept-alive socket', async () => {
    const seen: { body: string; headers: IncomingMessage['headers'] }[] = [];
    const { url, sockets } = await serve(async (req, res) => {
      seen.push({ body: await readBody(req), headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'abc' });
      res.end('{"jsonrpc":"2.0","id":1,"result":{}}');
    });
    const fetchLike = nodeHttpFetch({ fallback: noFallback });
    for (let i = 0; i < 3; i++) {
      const response = await fetchLike(url, post('{"jsonrpc":"2.0","id":1,"method":"ping"}'));
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBe('abc');
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
    expect(seen[0]?.body).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(seen[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      'mcp-session-id': 's1',
      'content-length': '40',
    });
    expect(sockets).toHaveLength(1);
  });

  it('waits for an answer slower than the idle time of a kept-alive socket', async () => {
    const { url } = await serve(async (req, res) => {
      await readBody(req);
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 300);
    });
    const response = await nodeHttpFetch({ fallback: noFallback, idleMs: 50 })(url, post('{}'));
    expect(await response.json()).toEqual({});
  });

  it('lets go of the signal it is given once each answer is over, whatever the answer', async () => {
    const { url } = await serve(async (req, res) => {
      await readBody(req);
      if (req.headers['x-answer'] === 'accepted') res.writeHead(202).end('Accepted');
      else if (req.headers['x-answer'] === 'none') res.writeHead(204).end();
      else res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {}\n\n');
    });
    const fetchLike = nodeHttpFetch({ fallback: noFallback });
    const transport = new AbortController();
    for (let i = 0; i < 50; i++) {
      const init = { signal: transport.signal };
      await (await fetchLike(url, post('{}', init))).text();
      const accepted = await fetchLike(
        url,
        post('{}', { ...init, headers: { 'x-answer': 'accepted' } }),
      );
      await accepted.body?.cancel();
      await fetchLike(url, post('{}', { ...init, headers: { 'x-answer': 'none' } }));
    }
    await vi.waitFor(() => expect(getEventListeners(transport.signal, 'abort')).toHaveLength(0));
  });

  it('hands over an SSE answer as it streams, before the server ends it', async () => {
    let finish: (() => void) | undefined;
    const { url } = await serve((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n');
      finish = () => res.end('data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
    });
    const response = await nodeHttpFetch({ fallback: noFallback })(url, post('{}'));
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toContain('notifications/progress');
    finish?.();
    let rest = '';
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += next.value;
    expect(rest).toContain('"result"');
  });

  it('aborts: before the answer the fetch rejects, during it the body does, with the reason', async () => {
    const { url } = await serve((req, res) => {
      req.resume();
      if (req.headers['x-answer'] === 'never') return;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
    });
    const fetchLike = nodeHttpFetch({ fallback: noFallback });
    const before = new AbortController();
    const pending = fetchLike(
      url,
      post('{}', { signal: before.signal, headers: { 'x-answer': 'never' } }),
    );
    before.abort(new Error('closed by the transport'));
    await expect(pending).rejects.toThrow('closed by the transport');

    const during = new AbortController();
    const response = await fetchLike(url, post('{}', { signal: during.signal }));
    const reader = response.body!.getReader();
    await reader.read();
    during.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    await expect(fetchLike(url, post('{}', { signal: during.signal }))).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('fails as fetch does when nothing listens, with the reason a user is told', async () => {
    const { url } = await serve(() => undefined);
    const closed = servers.pop()!;
    closed.close();
    await once(closed, 'close');
    const failure = await nodeHttpFetch({ fallback: noFallback })(url, post('{}')).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe('fetch failed');
    expect(networkProblem(failure)).toBe('nothing is listening there (connection refused)');
  });

  it('keeps the socket of a 202 the SDK cancels, and cuts off an answer cancelled mid-way', async () => {
    const closedEarly: boolean[] = [];
    const { url, sockets } = await serve(async (req, res) => {
      await readBody(req);
      if (req.headers['x-answer'] !== 'stream') {
        res.writeHead(202, { 'content-type': 'text/plain' }).end('Accepted');
        return;
      }
      res.on('close', () => closedEarly.push(!res.writableFinished));
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: {}\n\n');
    });
    const fetchLike = nodeHttpFetch({ fallback: noFallback });
    for (let i = 0; i < 3; i++) {
      const accepted = await fetchLike(url, post('{}'));
      expect(accepted.status).toBe(202);
      await accepted.body?.cancel();
    }
    expect(sockets).toHaveLength(1);
    const streaming = await fetchLike(url, post('{}', { headers: { 'x-answer': 'stream' } }));
    const reader = streaming.body!.getReader();
    await reader.read();
    await reader.cancel();
    await vi.waitFor(() => expect(closedEarly).toEqual([true]));
  });

  it('answers 202 with an empty body, and undoes a gzip coding', async () => {
    const { url } = await serve((req, res) => {
      req.resume();
      if (req.headers['x-answer'] === 'accepted') res.writeHead(202).end();
      else {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync('{"jsonrpc":"2.0","id":7,"result":{"ok":true}}'));
      }
    });
    const fetchLike = nodeHttpFetch({ fallback: noFallback });
    const accepted = await fetchLike(url, post('{}', { headers: { 'x-answer': 'accepted' } }));
    expect(accepted.status).toBe(202);
    expect(await accepted.text()).toBe('');
    const zipped = await fetchLike(url, post('{}'));
    expect(await zipped.json()).toEqual({ jsonrpc: '2.0', id: 7, result: { ok: true } });
  });

  it('leaves what it does not do to the fallback: other methods, other bodies, redirects', async () => {
    const { url } = await serve((req, res) => {
      req.resume();
      res.writeHead(307, { location: '/elsewhere' }).end();
    });
    const fallenBack: string[] = [];
    const fallback: FetchLike = (target, init) => {
      fallenBack.push(`${init?.method ?? 'GET'} ${String(target)}`);
      return Promise.resolve(new Response('from the fallback'));
    };
    const fetchLike = nodeHttpFetch({ fallback });
    // The SDK's transports follow a redirect themselves: asked for as it came, it is not followed.
    const manual = await fetchLike(url, post('{}', { redirect: 'manual' }));
    expect(manual.status).toBe(307);
    expect(manual.headers.get('location')).toBe('/elsewhere');
    await expect(fetchLike(url, post('{}', { redirect: 'error' }))).rejects.toThrow('fetch failed');
    expect(await (await fetchLike(url, post('{}'))).text()).toBe('from the fallback');
    await fetchLike(url, { method: 'GET' });
    await fetchLike(url, { method: 'POST', body: new URLSearchParams({ grant_type: 'x' }) });
    expect(fallenBack).toEqual([`POST ${url}`, `GET ${url}`, `POST ${url}`]);
  });

  it('sends a POST again on a fresh socket when the kept-alive one was closed under it', async () => {
    let requests = 0;
    const { url, sockets } = await serve(async (req, res: ServerResponse) => {
      requests += 1;
      await readBody(req);
      // The second request reaches the first socket, which the server then drops unanswered.
      if (requests === 2) req.socket.resetAndDestroy();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(`{"n":${requests}}`);
    });
    const fetchLike = nodeHttpFetch({ fallback: noFallback });
    expect(await (await fetchLike(url, post('{}'))).json()).toEqual({ n: 1 });
    expect(await (await fetchLike(url, post('{}'))).json()).toEqual({ n: 3 });
    expect(sockets).toHaveLength(2);
  });
});
