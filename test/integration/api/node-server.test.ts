import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, stdioServer, type ApiHarness } from './api-harness.js';

/**
 * The app served the way the daemon serves it (@hono/node-server without global
 * overrides), over real sockets: bodies without Content-Length behave there unlike in
 * app.request().
 */
let api: ApiHarness;
let server: Server;
let port: number;

beforeAll(async () => {
  api = await createApiHarness();
  const listener = getRequestListener((req) => api.app.fetch(req), {
    overrideGlobalObjects: false,
  });
  server = createServer((req, res) => void listener(req, res));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  await api.close();
});

/** A raw request: chunked when `chunks` is given (no Content-Length). */
function send(
  method: string,
  path: string,
  chunks?: string[],
): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `/api/v1${path}`,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', fail);
    for (const chunk of chunks ?? []) req.write(chunk);
    req.end();
  });
}

describe('the API over @hono/node-server', () => {
  it('reads a chunked body', async () => {
    const json = JSON.stringify(stdioServer);
    const created = await send('POST', '/servers', [json.slice(0, 10), json.slice(10)]);
    expect(created.status).toBe(201);
  });

  it('answers body-less DELETE and POST', async () => {
    expect((await send('POST', '/servers/files/disable')).status).toBe(200);
    expect((await send('DELETE', '/servers/files')).status).toBe(204);
    expect((await send('DELETE', '/servers/files')).status).toBe(404);
  });

  it('refuses a chunked body over 1 MiB with 413', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const response = await send('POST', '/servers', Array<string>(17).fill(chunk));
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});
