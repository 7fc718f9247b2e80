import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkBrowserAccess, isOwnOrigin } from '../../../src/daemon/access-guard.js';

const PORT = 8002;
const policy = { port: PORT, token: 'unused-by-cookie-checks' };
const sessions = {
  sessionFrom: (cookie: string | undefined) => /s=(\w+)/.exec(cookie ?? '')?.[1],
  isSession: (id: string) => id === 'good',
};
const own = `http://127.0.0.1:${PORT}`;

function check(method: string, headers: IncomingHttpHeaders) {
  return checkBrowserAccess(
    {
      method,
      url: '/api/v1/servers',
      headers: { host: `127.0.0.1:${PORT}`, cookie: 's=good', ...headers },
    },
    policy,
    sessions,
  );
}

describe('browser (cookie) access', () => {
  it('lets a live session read without an Origin (a navigation, a same-origin GET)', () => {
    expect(check('GET', {})).toEqual({ ok: true });
    expect(check('GET', { origin: own, 'sec-fetch-site': 'same-origin' })).toEqual({ ok: true });
    expect(check('GET', { 'sec-fetch-site': 'none' })).toEqual({ ok: true });
  });

  it('refuses an unknown or missing session with 401', () => {
    expect(check('GET', { cookie: 's=bad' })).toMatchObject({ ok: false, status: 401 });
    expect(check('GET', { cookie: '' })).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a foreign Host (DNS rebinding) before anything else', () => {
    expect(check('GET', { host: 'evil.example:8002' })).toMatchObject({ ok: false, status: 403 });
  });

  it('accepts a state change from its own origin with the CSRF header', () => {
    expect(check('POST', { origin: own, 'x-coffer-csrf': '1' })).toEqual({ ok: true });
    expect(check('DELETE', { origin: `http://localhost:${PORT}`, 'x-coffer-csrf': '1' })).toEqual({
      ok: true,
    });
  });

  it.each([
    ['no Origin', { 'x-coffer-csrf': '1' }],
    ['no CSRF header (a form post)', { origin: own }],
    ['a wrong CSRF value', { origin: own, 'x-coffer-csrf': 'yes' }],
    ['another local port', { origin: `http://127.0.0.1:${PORT + 1}`, 'x-coffer-csrf': '1' }],
    ['a remote site', { origin: 'https://evil.example', 'x-coffer-csrf': '1' }],
    ['an opaque origin', { origin: 'null', 'x-coffer-csrf': '1' }],
    ['a cross-site fetch', { origin: own, 'x-coffer-csrf': '1', 'sec-fetch-site': 'cross-site' }],
    ['a same-site fetch', { origin: own, 'x-coffer-csrf': '1', 'sec-fetch-site': 'same-site' }],
  ])('refuses a state change with %s (403)', (_label, headers: IncomingHttpHeaders) => {
    expect(check('POST', headers)).toMatchObject({ ok: false, status: 403, code: 'FORBIDDEN' });
  });

  it('refuses a read from another origin too', () => {
    expect(check('GET', { origin: `http://127.0.0.1:${PORT + 1}` })).toMatchObject({ status: 403 });
  });

  it('knows its own origins', () => {
    expect(isOwnOrigin(own, PORT)).toBe(true);
    expect(isOwnOrigin(`http://[::1]:${PORT}`, PORT)).toBe(true);
    expect(isOwnOrigin(`http://127.0.0.1`, PORT)).toBe(false);
    expect(isOwnOrigin(`https://127.0.0.1:${PORT}`, PORT)).toBe(false);
  });
});
