import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDaemonApi } from '../../../src/daemon/daemon-api.js';
import { createDaemonRouter, createDaemonServer } from '../../../src/daemon/http-server.js';
import { BrowserSessions } from '../../../src/daemon/login-codes.js';
import { UiRoutes } from '../../../src/daemon/ui-routes.js';
import { silentLogger } from '../../../src/observability/logger.js';

/**
 * The daemon's browser surface in-process: a temporary web root, the real router and
 * guard, and a stand-in API that says who reached it.
 */
const TOKEN = 'abcdefghijklmnopqrstuvwxyz012345';
const webRoot = mkdtempSync(join(tmpdir(), 'coffer-web-'));
const daemonServer = createDaemonServer();
const { server } = daemonServer;
let port = 0;
let sessions: BrowserSessions;

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function login(): Promise<string> {
  const issued = await send('POST', '/api/v1/ui/login-code', { authorization: `Bearer ${TOKEN}` });
  const { code } = JSON.parse(issued.body) as { code: string };
  const reply = await send('GET', `/login?code=${code}`);
  return String(reply.headers['set-cookie']?.[0]).split(';')[0]!;
}

beforeAll(async () => {
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>Coffer</title>');
  writeFileSync(join(webRoot, 'assets', 'app-1a2b.js'), 'console.log(1)');
  writeFileSync(join(tmpdir(), 'coffer-outside.txt'), 'outside');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const logger = silentLogger();
  const services = new Hono();
  services.all('/api/v1/*', (c) => c.json({ reached: c.req.path }));
  sessions = new BrowserSessions(port);
  daemonServer.serve(
    createDaemonRouter({
      port,
      token: TOKEN,
      logger,
      api: createDaemonApi({
        status: () => ({}),
        requestStop: () => undefined,
        forward: (request) => services.fetch(request),
        logger,
      }),
      services: {
        handleMcp: (_req, res) => {
          res.end('mcp');
          return Promise.resolve();
        },
      },
      ui: new UiRoutes({ sessions, logger, webRoot }),
    }),
  );
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(webRoot, { recursive: true, force: true });
  rmSync(join(tmpdir(), 'coffer-outside.txt'), { force: true });
});

describe('login codes and /login', () => {
  it('issues a code to the token holder only', async () => {
    expect((await send('POST', '/api/v1/ui/login-code')).status).toBe(401);
    const reply = await send('POST', '/api/v1/ui/login-code', { authorization: `Bearer ${TOKEN}` });
    expect(reply.status).toBe(200);
    const body = JSON.parse(reply.body) as { code: string; url: string; expires_at: string };
    expect(body.url).toBe(`http://127.0.0.1:${port}/login?code=${body.code}`);
    expect(Date.parse(body.expires_at)).toBeGreaterThan(Date.now());
  });

  it('trades a code for a cookie once, and redirects to / without the code', async () => {
    const issued = await send('POST', '/api/v1/ui/login-code', {
      authorization: `Bearer ${TOKEN}`,
    });
    const { code } = JSON.parse(issued.body) as { code: string };
    const reply = await send('GET', `/login?code=${code}`);
    expect(reply.status).toBe(303);
    expect(reply.headers.location).toBe('/');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.headers['set-cookie']?.[0]).toMatch(
      new RegExp(`^coffer_session_${port}=[\\w-]{43}; HttpOnly; SameSite=Strict; Path=/$`),
    );
    expect((await send('GET', `/login?code=${code}`)).status).toBe(401);
  });

  it('refuses a login under a foreign Host (DNS rebinding)', async () => {
    const issued = await send('POST', '/api/v1/ui/login-code', {
      authorization: `Bearer ${TOKEN}`,
    });
    const { code } = JSON.parse(issued.body) as { code: string };
    const reply = await send('GET', `/login?code=${code}`, { host: `evil.example:${port}` });
    expect(reply.status).toBe(403);
    expect(reply.headers['set-cookie']).toBeUndefined();
  });
});

describe('the built UI', () => {
  it('is served to a session, with security headers', async () => {
    const cookie = await login();
    const page = await send('GET', '/', { cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Coffer</title>');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-frame-options']).toBe('DENY');
    const asset = await send('GET', '/assets/app-1a2b.js', { cookie });
    expect(asset.headers['content-type']).toContain('text/javascript');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await send('GET', '/api/v1/servers', { cookie })).body).toContain('reached');
  });

  it('is served to the token holder too, and to no one else', async () => {
    expect((await send('GET', '/', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    const anonymous = await send('GET', '/', { accept: 'text/html' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['content-type']).toContain('text/html');
    const json = await send('GET', '/');
    expect(JSON.parse(json.body)).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });

  it('serves nothing outside the web root, and JSON 404 for unknown paths', async () => {
    const cookie = await login();
    for (const path of [
      '/../coffer-outside.txt',
      '/%2e%2e/coffer-outside.txt',
      '/assets/../../x',
    ]) {
      const reply = await send('GET', path, { cookie });
      expect(reply.body).not.toContain('outside');
    }
    const missing = await send('GET', '/nothing-here.js', { cookie });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('keeps MCP for the token: a session cookie does not open it', async () => {
    const cookie = await login();
    expect((await send('POST', '/mcp', { cookie })).status).toBe(401);
    expect((await send('POST', '/mcp', { authorization: `Bearer ${TOKEN}` })).body).toBe('mcp');
  });

  it('says how to build it when index.html is missing', async () => {
    rmSync(join(webRoot, 'index.html'));
    const reply = await send('GET', '/', { authorization: `Bearer ${TOKEN}` });
    expect(reply.status).toBe(503);
    expect(reply.body).toContain('npm run build');
  });
});
