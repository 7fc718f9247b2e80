import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cofferPaths } from '../../../src/config/home.js';
import { createApiClient } from '../../../src/cli/api-client.js';
import { daemonInfoFromRecord } from '../../../src/discovery/daemon-record.js';

/**
 * The CLI's client of the daemon's REST API against a real node:http server on loopback:
 * what it sends, how each kind of answer comes back, and that its connection closes after
 * the answer (a command must not wait on an idle keep-alive socket before it exits).
 */
type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function daemonAnswering(handler: Handler) {
  const sockets: Socket[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => handler(request, body, response));
  });
  // As the daemon's: a client that keeps its socket would hold it this long.
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => sockets.push(socket));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    sockets,
    client: (requestTimeoutMs?: number) => clientFor(port, requestTimeoutMs),
  };
}

function clientFor(port: number, requestTimeoutMs?: number) {
  const daemon = daemonInfoFromRecord({
    version: 1,
    pid: process.pid,
    port,
    token: 'the-token',
    started_at: new Date(0).toISOString(),
    binary_path: '/nowhere/coffer.js',
  });
  return createApiClient(daemon, {
    paths: cofferPaths('/tmp/coffer-api-client-test'),
    ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
  });
}

/** Resolves once `socket` has closed; a socket kept open fails the test by its timeout. */
async function closed(socket: Socket): Promise<void> {
  if (!socket.closed) await once(socket, 'close');
  expect(socket.closed).toBe(true);
}

const json = (response: ServerResponse, status: number, value: unknown): void => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
};

describe('the CLI API client', () => {
  it('sends the token and a JSON body under /api/v1, and returns the parsed answer', async () => {
    const seen: Array<Record<string, string | undefined>> = [];
    const { client } = await daemonAnswering((request, body, response) => {
      seen.push({
        method: request.method,
        url: request.url,
        auth: request.headers.authorization,
        type: request.headers['content-type'],
        body,
      });
      json(response, 201, { server: { name: 'fx' } });
    });
    await expect(client().post('/servers', { name: 'fx' })).resolves.toEqual({
      server: { name: 'fx' },
    });
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/api/v1/servers',
        auth: 'Bearer the-token',
        type: 'application/json',
        body: '{"name":"fx"}',
      },
    ]);
  });

  it('closes its connection once answered, so a command exits at once', async () => {
    const asked: Array<string | undefined> = [];
    const { client, sockets } = await daemonAnswering((request, _body, response) => {
      asked.push(request.headers.connection);
      json(response, 200, { ok: true });
    });
    await client().get('/status');
    expect(asked).toEqual(['close']);
    expect(sockets).toHaveLength(1);
    await closed(sockets[0]!);
  });

  it('returns undefined for an empty answer (204)', async () => {
    const { client } = await daemonAnswering((_request, _body, response) => {
      response.writeHead(204);
      response.end();
    });
    await expect(client().delete('/servers/fx')).resolves.toBeUndefined();
  });

  it("turns the daemon's error body into a CofferError with its code, hint and status", async () => {
    const { client } = await daemonAnswering((_request, _body, response) =>
      json(response, 404, {
        error: { code: 'SERVER_NOT_FOUND', message: 'No server "x"', hint: 'see coffer mcp list' },
      }),
    );
    await expect(client().get('/servers/x')).rejects.toMatchObject({
      code: 'SERVER_NOT_FOUND',
      message: 'No server "x"',
      hint: 'see coffer mcp list',
      data: { status: 404, code: 'SERVER_NOT_FOUND' },
    });
  });

  it('maps an error without a JSON body, and a success with a broken one, to INTERNAL', async () => {
    const { client } = await daemonAnswering((request, _body, response) => {
      if (request.url?.endsWith('/broken') === true) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"half":');
      } else {
        response.writeHead(502);
        response.end('Bad Gateway');
      }
    });
    await expect(client().get('/plain')).rejects.toMatchObject({
      code: 'INTERNAL',
      message: 'The daemon answered HTTP 502',
    });
    await expect(client().get('/broken')).rejects.toMatchObject({
      code: 'INTERNAL',
      message: 'The daemon answered GET /broken with invalid JSON',
    });
  });

  it('gives up on a daemon that does not answer, and closes the connection', async () => {
    const { client, sockets } = await daemonAnswering(() => undefined);
    await expect(client(300).get('/status')).rejects.toMatchObject({
      code: 'DAEMON_UNAVAILABLE',
      message: 'The Coffer daemon did not answer within 0.3 s',
    });
    await closed(sockets[0]!);
  });

  it('says so when nothing listens on the port', async () => {
    const { port } = await daemonAnswering(() => undefined);
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    await expect(clientFor(port).get('/status')).rejects.toMatchObject({
      code: 'DAEMON_UNAVAILABLE',
      message: `Cannot reach the Coffer daemon at http://127.0.0.1:${port}`,
    });
  });
});
