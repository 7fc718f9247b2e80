import { describe, expect, it } from 'vitest';
import {
  BrowserSessions,
  LOGIN_CODE_TTL_MS,
  SESSION_TTL_MS,
} from '../../../src/daemon/login-codes.js';

function fakeClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('browser login codes', () => {
  it('issues random codes that work once', () => {
    const sessions = new BrowserSessions(8001, fakeClock());
    const { code } = sessions.issueCode();
    expect(code).toMatch(/^[\w-]{43}$/);
    expect(sessions.issueCode().code).not.toBe(code);
    const session = sessions.redeem(code);
    expect(session).toMatch(/^[\w-]{43}$/);
    expect(sessions.isSession(session!)).toBe(true);
    expect(sessions.redeem(code)).toBeUndefined();
  });

  it('expire after two minutes', () => {
    const clock = fakeClock();
    const sessions = new BrowserSessions(8001, clock);
    const issued = sessions.issueCode();
    expect(Date.parse(issued.expires_at) - clock.now().getTime()).toBe(LOGIN_CODE_TTL_MS);
    clock.advance(LOGIN_CODE_TTL_MS);
    expect(sessions.redeem(issued.code)).toBeUndefined();
  });

  it('refuses empty and unknown codes and session ids', () => {
    const sessions = new BrowserSessions(8001, fakeClock());
    expect(sessions.redeem('')).toBeUndefined();
    expect(sessions.redeem('guess')).toBeUndefined();
    expect(sessions.isSession('')).toBe(false);
    expect(sessions.isSession('guess')).toBe(false);
  });

  it('a code is not a session, nor a session a code', () => {
    const sessions = new BrowserSessions(8001, fakeClock());
    const { code } = sessions.issueCode();
    expect(sessions.isSession(code)).toBe(false);
    const session = sessions.redeem(code)!;
    expect(sessions.redeem(session)).toBeUndefined();
  });

  it('sessions end after their lifetime', () => {
    const clock = fakeClock();
    const sessions = new BrowserSessions(8001, clock);
    const session = sessions.redeem(sessions.issueCode().code)!;
    clock.advance(SESSION_TTL_MS - 1);
    expect(sessions.isSession(session)).toBe(true);
    clock.advance(1);
    expect(sessions.isSession(session)).toBe(false);
  });

  it('keeps a bounded number of outstanding codes, dropping the oldest', () => {
    const sessions = new BrowserSessions(8001, fakeClock());
    const first = sessions.issueCode().code;
    for (let i = 0; i < 100; i += 1) sessions.issueCode();
    expect(sessions.redeem(first)).toBeUndefined();
    expect(sessions.redeem(sessions.issueCode().code)).toBeDefined();
  });
});

describe('browser session cookie', () => {
  const sessions = new BrowserSessions(8004);

  it('is named per port: two daemons on one machine keep their own', () => {
    expect(sessions.cookieName).toBe('coffer_session_8004');
    expect(new BrowserSessions(8005).cookieName).not.toBe(sessions.cookieName);
  });

  it('is HttpOnly, SameSite=Strict, for the whole origin', () => {
    expect(sessions.cookieFor('abc')).toBe(
      'coffer_session_8004=abc; HttpOnly; SameSite=Strict; Path=/',
    );
  });

  it('is found among other cookies', () => {
    expect(sessions.sessionFrom(undefined)).toBeUndefined();
    expect(sessions.sessionFrom('a=1; coffer_session_8005=x')).toBeUndefined();
    expect(sessions.sessionFrom('a=1; coffer_session_8004=x-y_z; b=2')).toBe('x-y_z');
  });
});
