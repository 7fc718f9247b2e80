import type { IncomingHttpHeaders } from 'node:http';
import type * as Crypto from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

// Spy on timingSafeEqual to prove the guard compares tokens with it, on equal lengths.
const spy = vi.hoisted(() => ({ calls: [] as [number, number][] }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof Crypto>();
  return {
    ...actual,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      spy.calls.push([a.byteLength, b.byteLength]);
      return actual.timingSafeEqual(a, b);
    },
  };
});

const { bearerToken, checkAccess, isAllowedHost, isAllowedOrigin, tokensEqual } =
  await import('../../../src/daemon/access-guard.js');

const PORT = 8003;
const TOKEN = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3Jh';
const policy = { port: PORT, token: TOKEN };

function request(headers: IncomingHttpHeaders, url = '/mcp') {
  return { headers: { host: `127.0.0.1:${PORT}`, ...headers }, url };
}

describe('access guard: Host (DNS rebinding)', () => {
  it.each([
    `127.0.0.1:${PORT}`,
    `localhost:${PORT}`,
    `[::1]:${PORT}`,
    `LOCALHOST:${PORT}`,
    `127.0.0.1:${PORT + 1}`,
    'localhost',
  ])('accepts Host %s', (host) => {
    expect(isAllowedHost(host, PORT)).toBe(true);
    expect(checkAccess(request({ host, authorization: `Bearer ${TOKEN}` }), policy)).toEqual({
      ok: true,
    });
  });

  it.each([
    'evil.com',
    `evil.com:${PORT}`,
    `localhost.evil.com:${PORT}`,
    `127.0.0.1.nip.io:${PORT}`,
    `0.0.0.0:${PORT}`,
    `[::1]:${PORT}:1`,
    `localhost:${PORT}@evil.com`,
    '',
  ])('refuses Host %j with 403 even with the right token', (host) => {
    const decision = checkAccess(request({ host, authorization: `Bearer ${TOKEN}` }), policy);
    expect(decision).toMatchObject({ ok: false, status: 403, code: 'FORBIDDEN' });
  });

  it('refuses a request without Host', () => {
    const decision = checkAccess(
      { headers: { authorization: `Bearer ${TOKEN}` }, url: '/mcp' },
      policy,
    );
    expect(decision).toMatchObject({ ok: false, status: 403 });
  });
});

describe('access guard: Origin', () => {
  it.each([
    `http://127.0.0.1:${PORT}`,
    `http://localhost:${PORT}`,
    'http://localhost:5173',
    'http://[::1]:9999',
    'http://localhost',
  ])('accepts loopback http origin %s', (origin) => {
    expect(isAllowedOrigin(origin)).toBe(true);
    expect(checkAccess(request({ origin, authorization: `Bearer ${TOKEN}` }), policy)).toEqual({
      ok: true,
    });
  });

  it.each([
    'http://evil.com',
    `http://evil.com:${PORT}`,
    `https://localhost:${PORT}`,
    'null',
    'file://',
    `http://localhost.evil.com:${PORT}`,
    `http://127.0.0.1.evil.com:${PORT}`,
    `http://user@evil.com:${PORT}`,
    `http://localhost:${PORT}/path`,
    'chrome-extension://abcdef',
  ])('refuses origin %j with 403', (origin) => {
    expect(isAllowedOrigin(origin)).toBe(false);
    const decision = checkAccess(request({ origin, authorization: `Bearer ${TOKEN}` }), policy);
    expect(decision).toMatchObject({ ok: false, status: 403, code: 'FORBIDDEN' });
  });

  it('accepts requests without Origin (non-browser clients)', () => {
    expect(checkAccess(request({ authorization: `Bearer ${TOKEN}` }), policy)).toEqual({
      ok: true,
    });
  });
});

describe('access guard: bearer token', () => {
  it('401 without Authorization', () => {
    expect(checkAccess(request({}), policy)).toMatchObject({
      ok: false,
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  it.each([
    ['wrong token', `Bearer ${'x'.repeat(32)}`],
    ['prefix of the token', `Bearer ${TOKEN.slice(0, 31)}`],
    ['token plus a character', `Bearer ${TOKEN}x`],
    ['Basic scheme', `Basic ${TOKEN}`],
    ['bare token', TOKEN],
    ['empty bearer', 'Bearer '],
    ['two tokens', `Bearer ${TOKEN} ${TOKEN}`],
  ])('401 for %s', (_label, authorization) => {
    expect(checkAccess(request({ authorization }), policy)).toMatchObject({
      ok: false,
      status: 401,
      code: 'UNAUTHORIZED',
    });
  });

  it('accepts the scheme case-insensitively', () => {
    expect(checkAccess(request({ authorization: `bearer ${TOKEN}` }), policy)).toEqual({
      ok: true,
    });
  });

  it('never accepts a token in the query string', () => {
    for (const url of [`/mcp?token=${TOKEN}`, `/api/v1/status?access_token=${TOKEN}`]) {
      expect(checkAccess(request({}, url), policy)).toMatchObject({ ok: false, status: 401 });
      expect(checkAccess(request({ authorization: `Bearer ${TOKEN}` }, url), policy)).toMatchObject(
        { ok: false, status: 401, message: expect.stringMatching(/query string/) },
      );
    }
  });

  it('extracts bearer tokens', () => {
    expect(bearerToken(`Bearer ${TOKEN}`)).toBe(TOKEN);
    expect(bearerToken(`BEARER\t${TOKEN} `)).toBe(TOKEN);
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
  });
});

describe('constant-time token comparison', () => {
  it("compares with crypto.timingSafeEqual over the expected token's length, whatever the input length", () => {
    spy.calls.length = 0;
    expect(tokensEqual(TOKEN, TOKEN)).toBe(true);
    expect(tokensEqual('short', TOKEN)).toBe(false);
    expect(tokensEqual(`${TOKEN}${TOKEN}`, TOKEN)).toBe(false);
    expect(tokensEqual('', TOKEN)).toBe(false);
    expect(tokensEqual(`${TOKEN.slice(0, -1)}x`, TOKEN)).toBe(false);
    // The same work for every input: the time tells neither the token nor its length.
    expect(spy.calls).toEqual(Array.from({ length: 5 }, () => [TOKEN.length, TOKEN.length]));
  });

  it('the guard goes through the constant-time comparison', () => {
    spy.calls.length = 0;
    checkAccess(request({ authorization: 'Bearer nope' }), policy);
    expect(spy.calls.length).toBeGreaterThan(0);
  });

  it('equals plain equality for any pair of strings (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(tokensEqual(a, b)).toBe(a === b && a.length > 0);
      }),
    );
    fc.assert(fc.property(fc.string({ minLength: 1 }), (a) => tokensEqual(a, a)));
  });

  it('an empty expected token never matches', () => {
    expect(tokensEqual('', '')).toBe(false);
  });
});
