import type { IncomingHttpHeaders } from 'node:http';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bearerToken,
  checkAccess,
  isAllowedHost,
  isAllowedOrigin,
  tokensEqual,
} from '../../../src/daemon/access-guard.js';

/**
 * Records timingSafeEqual's calls, to prove the guard compares tokens with it, on equal
 * lengths. Node's own way to patch a built-in: the patched function reaches every named
 * import of it (the guard's too), whoever imported node:crypto first, and is put back after
 * each test. (Unit test files share their modules, so a vi.mock could come too late.)
 */
const calls: [number, number][] = [];
const timingSafeEqual = crypto.timingSafeEqual;
beforeEach(() => {
  calls.length = 0;
  crypto.timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
    calls.push([a.byteLength, b.byteLength]);
    return timingSafeEqual(a, b);
  };
  syncBuiltinESMExports();
});
afterEach(() => {
  crypto.timingSafeEqual = timingSafeEqual;
  syncBuiltinESMExports();
});

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
    expect(decision).toMatchObject({
      ok: false,
      status: 403,
      code: 'FORBIDDEN',
      hint: expect.stringContaining('http://127.0.0.1:<port>') as unknown,
    });
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
    expect(tokensEqual(TOKEN, TOKEN)).toBe(true);
    expect(tokensEqual('short', TOKEN)).toBe(false);
    expect(tokensEqual(`${TOKEN}${TOKEN}`, TOKEN)).toBe(false);
    expect(tokensEqual('', TOKEN)).toBe(false);
    expect(tokensEqual(`${TOKEN.slice(0, -1)}x`, TOKEN)).toBe(false);
    // The same work for every input: the time tells neither the token nor its length.
    expect(calls).toEqual(Array.from({ length: 5 }, () => [TOKEN.length, TOKEN.length]));
  });

  it('the guard goes through the constant-time comparison', () => {
    checkAccess(request({ authorization: 'Bearer nope' }), policy);
    expect(calls.length).toBeGreaterThan(0);
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
