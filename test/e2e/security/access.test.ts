import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startDaemon,
  type RunningDaemon,
  fixtureServer as fixture,
} from '../../support/running-daemon.js';
import { rawRequest, type RawResponse } from '../../fuzz/support/raw-request.js';
import {
  expectSessionAlive,
  mcpHeaders,
  openSession,
  postMcp,
} from '../../fuzz/support/mcp-session.js';

/**
 * Who gets in, on a real daemon, over raw HTTP (fetch cannot forge Host): the token
 * and only the token opens MCP; the UI cookie opens the API for same-origin pages only;
 * a session id is not a credential. docs/SECURITY.md maps each threat to a test here.
 */
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'a', version: '1' },
  },
});

let daemon: RunningDaemon;
const host = () => `127.0.0.1:${daemon.port}`;
const bearer = () => `Bearer ${daemon.token}`;

function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  return rawRequest({
    port: daemon.port,
    method,
    path,
    headers: { host: host(), ...headers },
    ...(body === undefined ? {} : { body }),
  });
}

function expectRefused(reply: RawResponse, status: 401 | 403, context: string): void {
  expect(reply.status, `${context}: ${reply.body}`).toBe(status);
  const code = status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN';
  expect(JSON.parse(reply.body), context).toMatchObject({ error: { code } });
  expect(reply.headers['mcp-session-id'], context).toBeUndefined();
  expect(reply.headers['set-cookie'], context).toBeUndefined();
  if (status === 401)
    expect(reply.headers['www-authenticate'], context).toBe('Bearer realm="coffer"');
}

async function isEnabled(name: string): Promise<boolean> {
  return (await daemon.api('GET', `/servers/${name}`)).body.server.enabled as boolean;
}

/** A browser session as `coffer ui` makes one: a login code for the token, traded once. */
async function browserCookie(): Promise<{ header: string; setCookie: string }> {
  const issued = await send('POST', '/api/v1/ui/login-code', { authorization: bearer() });
  expect(issued.status).toBe(200);
  const { code } = JSON.parse(issued.body) as { code: string };
  const login = await send('GET', `/login?code=${code}`, {});
  expect(login.status).toBe(303);
  const setCookie = String((login.headers['set-cookie'] as string[] | undefined)?.[0]);
  return { header: setCookie.split(';')[0]!, setCookie };
}

beforeAll(async () => {
  daemon = await startDaemon();
  for (const name of ['fx', 'target']) {
    const added = await daemon.api('POST', '/servers', {
      name,
      transport: 'stdio',
      command: process.execPath,
      args: [fixture],
    });
    expect(added.status).toBe(201);
  }
});

afterAll(async () => {
  await daemon?.stop();
});

const GUARDED = [
  ['POST', '/mcp'],
  ['GET', '/mcp'],
  ['POST', '/servers/fx/mcp'],
  ['GET', '/api/v1/servers'],
  ['POST', '/api/v1/servers/target/disable'],
  ['GET', '/api/v1/secrets'],
  ['POST', '/api/v1/ui/login-code'],
  ['POST', '/api/v1/daemon/stop'],
] as const;

describe('the bearer token', () => {
  it.each(GUARDED)('%s %s: 401 without it', async (method, path) => {
    expectRefused(
      await send(method, path, {}, method === 'POST' ? INITIALIZE : undefined),
      401,
      path,
    );
  });

  it.each([
    ['a wrong token of the same length', (t: string) => `Bearer ${'A'.repeat(t.length)}`],
    [
      'the token with one character changed',
      (t: string) => `Bearer ${t.slice(0, -1)}${t.endsWith('x') ? 'y' : 'x'}`,
    ],
    ['a prefix of the token', (t: string) => `Bearer ${t.slice(0, 8)}`],
    ['an empty bearer', () => 'Bearer '],
    ['the token under the Basic scheme', (t: string) => `Basic ${t}`],
    ['the token and more', (t: string) => `Bearer ${t} ${t}`],
    ['the bare token', (t: string) => t],
  ])('401 for %s, on MCP and the API', async (label, header) => {
    for (const [method, path] of GUARDED) {
      const reply = await send(
        method,
        path,
        { authorization: header(daemon.token) },
        method === 'POST' ? INITIALIZE : undefined,
      );
      expectRefused(reply, 401, `${label} ${method} ${path}`);
    }
    expect(await isEnabled('target')).toBe(true);
  });

  it.each(['token', 'access_token'])(
    '?%s= in the query string never authenticates, and spoils a good header too',
    async (param) => {
      const withoutHeader = { ...mcpHeaders(daemon) } as Record<string, string>;
      delete withoutHeader['authorization'];
      for (const path of ['/mcp', '/servers/fx/mcp', '/api/v1/servers']) {
        const query = `${path}?${param}=${daemon.token}`;
        expectRefused(await send('POST', query, withoutHeader, INITIALIZE), 401, `${query} alone`);
        const both = await send('POST', query, mcpHeaders(daemon), INITIALIZE);
        expectRefused(both, 401, `${query} with the header`);
        expect(both.body).toContain('query string');
      }
      // The same request without the query parameter is served: the parameter refused it.
      const control = await send('POST', '/mcp', mcpHeaders(daemon), INITIALIZE);
      expect(control.status).toBe(200);
    },
  );
});

describe('Host and Origin (DNS rebinding, other local pages)', () => {
  it.each([
    'evil.example',
    'evil.example:PORT',
    '127.0.0.1.evil.example:PORT',
    'localhost.evil.example',
    '10.0.0.1:PORT',
    '0.0.0.0:PORT',
  ])('403 for Host %j, token or not', async (template) => {
    const hostHeader = template.replace('PORT', String(daemon.port));
    for (const [method, path] of GUARDED) {
      const reply = await send(
        method,
        path,
        { host: hostHeader, authorization: bearer() },
        method === 'POST' ? INITIALIZE : undefined,
      );
      expectRefused(reply, 403, `${hostHeader} ${method} ${path}`);
    }
    expect(await isEnabled('target')).toBe(true);
  });

  it.each(['localhost:PORT', '[::1]:PORT', '127.0.0.1'])(
    'Host %j is loopback and served',
    async (template) => {
      const reply = await send('GET', '/api/v1/servers', {
        host: template.replace('PORT', String(daemon.port)),
        authorization: bearer(),
      });
      expect(reply.status).toBe(200);
    },
  );

  it.each([
    'http://evil.example',
    'null',
    'https://127.0.0.1:PORT',
    'http://127.0.0.1.evil.example:PORT',
    'http://localhost@evil.example',
    'file://',
  ])('403 for Origin %j, even with the token', async (template) => {
    const origin = template.replace('PORT', String(daemon.port));
    for (const [method, path] of GUARDED) {
      const reply = await send(
        method,
        path,
        { origin, authorization: bearer() },
        method === 'POST' ? INITIALIZE : undefined,
      );
      expectRefused(reply, 403, `${origin} ${method} ${path}`);
    }
  });

  it('refuses a path the URL parser would rewrite (`/api/v1/%2e%2e/…`), as JSON', async () => {
    for (const path of [
      '/api/v1/%2e%2e/constructor',
      '/api/v1/servers/../secrets',
      '/servers/%2e%2e/mcp',
    ]) {
      const reply = await send('GET', path, { authorization: bearer() });
      expect(reply.status, path).toBe(400);
      expect(JSON.parse(reply.body), path).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    }
  });
});

describe('the web UI cookie', () => {
  it('is HttpOnly, SameSite=Strict, Path=/, per port, and its login code works once', async () => {
    const issued = await send('POST', '/api/v1/ui/login-code', { authorization: bearer() });
    const { code } = JSON.parse(issued.body) as { code: string };
    const login = await send('GET', `/login?code=${code}`, {});
    const cookie = String((login.headers['set-cookie'] as string[])[0]);
    const [pair, ...attributes] = cookie.split('; ');
    expect(pair).toMatch(new RegExp(`^coffer_session_${daemon.port}=[\\w-]{43}$`));
    expect(attributes.sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict']);
    expect(pair).not.toContain(daemon.token);
    const again = await send('GET', `/login?code=${code}`, {});
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('opens the API to a same-origin request with X-Coffer-CSRF, and MCP never', async () => {
    const { header } = await browserCookie();
    const own = `http://127.0.0.1:${daemon.port}`;
    expect((await send('GET', '/api/v1/servers', { cookie: header })).status).toBe(200);
    const mcp = await send(
      'POST',
      '/mcp',
      {
        cookie: header,
        origin: own,
        'x-coffer-csrf': '1',
        ...mcpHeaders(daemon),
        authorization: '',
      },
      INITIALIZE,
    );
    expect(mcp.status).toBe(401);
    const allowed = await send('POST', '/api/v1/servers/target/disable', {
      cookie: header,
      origin: own,
      'x-coffer-csrf': '1',
    });
    expect(allowed.status).toBe(200);
    expect(await isEnabled('target')).toBe(false);
    await daemon.api('POST', '/servers/target/enable');
  });

  it.each([
    ['text/plain', '{"a":"=b"}'],
    ['application/x-www-form-urlencoded', 'a=b'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('refuses a cross-site form post (%s) that carries the cookie', async (type, body) => {
    const { header } = await browserCookie();
    const own = `http://127.0.0.1:${daemon.port}`;
    const attempts: Array<[string, Record<string, string>]> = [
      ['foreign Origin', { origin: 'http://evil.example' }],
      ['another local port', { origin: `http://127.0.0.1:${daemon.port + 1}` }],
      ['own Origin without the CSRF header', { origin: own }],
      ['no Origin', {}],
      [
        'cross-site fetch metadata',
        { origin: own, 'x-coffer-csrf': '1', 'sec-fetch-site': 'cross-site' },
      ],
      [
        'same-site fetch metadata',
        { origin: own, 'x-coffer-csrf': '1', 'sec-fetch-site': 'same-site' },
      ],
    ];
    for (const [label, extra] of attempts) {
      for (const path of ['/api/v1/servers/target/disable', '/api/v1/servers', '/api/v1/secrets']) {
        const reply = await send(
          'POST',
          path,
          { cookie: header, 'content-type': type, ...extra },
          body,
        );
        expect(reply.status, `${label} ${path}: ${reply.body}`).toBe(403);
      }
    }
    expect(await isEnabled('target')).toBe(true);
    expect((await daemon.api('GET', '/servers')).body.servers).toHaveLength(2);
  });
});

describe('an MCP session id is not a credential', () => {
  it('another session’s id is refused without the token, and outside its scope with it', async () => {
    const session = await openSession(daemon, '/mcp');
    const ping = '{"jsonrpc":"2.0","id":2,"method":"ping"}';
    const stolen = { ...mcpHeaders(daemon, session) } as Record<string, string>;
    delete stolen['authorization'];
    for (const method of ['POST', 'GET', 'DELETE']) {
      const body = method === 'POST' ? ping : undefined;
      expectRefused(await send(method, '/mcp', stolen, body), 401, `${method} without token`);
      expectRefused(
        await send(method, '/mcp', { ...stolen, authorization: 'Bearer wrong' }, body),
        401,
        `${method} wrong token`,
      );
      const { header } = await browserCookie();
      expectRefused(
        await send(method, '/mcp', { ...stolen, cookie: header }, body),
        401,
        `${method} cookie`,
      );
      // With the token, but on the single-server endpoint: not this session's scope.
      const elsewhere = await send(method, '/servers/fx/mcp', mcpHeaders(daemon, session), body);
      expect(elsewhere.status, `${method} other scope`).toBe(404);
      expect(JSON.parse(elsewhere.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    }
    // None of that touched the session.
    await expectSessionAlive(daemon, '/mcp', session);
    const single = await openSession(daemon, '/servers/fx/mcp');
    const reversed = await postMcp(daemon, '/mcp', ping, mcpHeaders(daemon, single));
    expect(reversed.status).toBe(404);
    await expectSessionAlive(daemon, '/servers/fx/mcp', single);
  });
});
