import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDaemonApi } from '../../../src/daemon/daemon-api.js';
import { createDaemonRouter, createDaemonServer } from '../../../src/daemon/http-server.js';
import { CofferError } from '../../../src/domain/errors.js';
import { silentLogger } from '../../../src/observability/logger.js';

/**
 * The router in-process, on an ephemeral loopback port, with fake services that
 * record what reached them.
 */
const TOKEN = 'abcdefghijklmnopqrstuvwxyz012345';
const mcpCalls: (string | undefined)[] = [];
const stopRequests: string[] = [];

const servicesApi = new Hono();
servicesApi.get('/api/v1/servers', (c) => c.json({ servers: ['from-services'] }));
servicesApi.post('/api/v1/echo', async (c) => c.json({ echoed: await c.req.json<unknown>() }));

const { server, serve } = (() => {
  const created = createDaemonServer();
  return {
    server: created.server,
    serve: (h: Parameters<typeof created.serve>[0]) => created.serve(h),
  };
})();
let port = 0;

interface ReplyJson {
  error: { code: string; message: string; hint?: string; traceId: string };
  [key: string]: unknown;
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: () => ReplyJson;
}

function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { host: `127.0.0.1:${port}`, ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            json: () => JSON.parse(text) as ReplyJson,
          }),
        );
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const auth = () => ({ authorization: `Bearer ${TOKEN}` });

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('daemon HTTP surface', () => {
  it('answers 503 until the services are served', async () => {
    const reply = await send('GET', '/healthz');
    expect(reply.status).toBe(503);
    expect(reply.json().error.code).toBe('DAEMON_UNAVAILABLE');

    const logger = silentLogger();
    const api = createDaemonApi({
      status: () => ({ pid: 1, servers: [] }),
      requestStop: (reason) => stopRequests.push(reason),
      forward: (request) => servicesApi.fetch(request),
      logger,
    });
    serve(
      createDaemonRouter({
        port,
        token: TOKEN,
        logger,
        api,
        services: {
          handleMcp: (req: IncomingMessage, res: ServerResponse, name: string | undefined) => {
            mcpCalls.push(name);
            if (name === 'explode') return Promise.reject(new Error('secret /home/path'));
            if (name === 'missing') {
              return Promise.reject(new CofferError('SERVER_NOT_FOUND', 'No server "missing"'));
            }
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ served: name ?? null, method: req.method }));
            return Promise.resolve();
          },
        },
      }),
    );
  });

  it('serves /healthz without a token', async () => {
    const reply = await send('GET', '/healthz');
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ ok: true });
  });

  it('guards every other route: 401 JSON with a traceId', async () => {
    for (const path of ['/mcp', '/servers/a/mcp', '/api/v1/status', '/nowhere', '/']) {
      const reply = await send('GET', path);
      expect(reply.status, path).toBe(401);
      expect(reply.headers['www-authenticate']).toMatch(/^Bearer/);
      const { error } = reply.json();
      expect(error.code).toBe('UNAUTHORIZED');
      expect(typeof error.message).toBe('string');
      expect(error.hint).toContain('daemon.json');
      expect(error.hint).toContain('coffer shim');
      expect(error.traceId).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(mcpCalls).toEqual([]);
  });

  it('403 for a foreign Host or Origin, before anything reaches the services', async () => {
    const evilHost = await send('POST', '/mcp', { ...auth(), host: 'attacker.example:80' });
    expect(evilHost.status).toBe(403);
    expect(evilHost.json().error.code).toBe('FORBIDDEN');
    const evilOrigin = await send('POST', '/mcp', { ...auth(), origin: 'http://attacker.example' });
    expect(evilOrigin.status).toBe(403);
    expect(mcpCalls).toEqual([]);
  });

  it('routes /mcp and /servers/<name>/mcp to handleMcp', async () => {
    const aggregated = await send('POST', '/mcp', auth(), '{}');
    expect(aggregated.json()).toEqual({ served: null, method: 'POST' });
    const single = await send('GET', '/servers/my-server/mcp', auth());
    expect(single.json()).toEqual({ served: 'my-server', method: 'GET' });
    const encoded = await send('DELETE', '/servers/a%5Fb/mcp', auth());
    expect(encoded.json()).toEqual({ served: 'a_b', method: 'DELETE' });
    expect(mcpCalls).toEqual([undefined, 'my-server', 'a_b']);
  });

  it('turns handler failures into JSON errors without leaking details', async () => {
    const failed = await send('POST', '/servers/explode/mcp', auth());
    expect(failed.status).toBe(500);
    expect(failed.json().error.code).toBe('INTERNAL');
    expect(failed.body).not.toContain('/home/path');
    const missing = await send('POST', '/servers/missing/mcp', auth());
    expect(missing.status).toBe(404);
    expect(missing.json().error).toMatchObject({ code: 'SERVER_NOT_FOUND' });
  });

  it('answers GET /api/v1/status itself and forwards the rest of /api/v1 to services.api', async () => {
    const status = await send('GET', '/api/v1/status', auth());
    expect(status.status).toBe(200);
    expect(status.json()).toEqual({ pid: 1, servers: [] });
    const servers = await send('GET', '/api/v1/servers', auth());
    expect(servers.json()).toEqual({ servers: ['from-services'] });
    const echo = await send(
      'POST',
      '/api/v1/echo',
      { ...auth(), 'content-type': 'application/json' },
      '{"a":1}',
    );
    expect(echo.json()).toEqual({ echoed: { a: 1 } });
  });

  it('POST /api/v1/daemon/stop answers 202, then requests the stop', async () => {
    const reply = await send('POST', '/api/v1/daemon/stop', auth());
    expect(reply.status).toBe(202);
    expect(reply.json()).toMatchObject({ ok: true, stopping: true });
    await expect.poll(() => stopRequests).toEqual(['stop endpoint']);
  });

  it('404 JSON for unknown routes (after the guard)', async () => {
    const reply = await send('GET', '/nowhere', auth());
    expect(reply.status).toBe(404);
    expect(reply.json().error.code).toBe('NOT_FOUND');
  });

  it('continues an incoming W3C trace', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const reply = await send('GET', '/nowhere', {
      ...auth(),
      traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
    });
    expect(reply.json().error.traceId).toBe(traceId);
  });
});
