import { createHash, randomBytes } from 'node:crypto';
import { systemClock, type Clock } from '../domain/ports.js';

/** `coffer ui` opens the link at once; two minutes covers a slow browser start. */
export const LOGIN_CODE_TTL_MS = 2 * 60_000;
/** A browser session lasts a working day; `coffer ui` again gives a new one. */
export const SESSION_TTL_MS = 12 * 60 * 60_000;
/** Bounds on what a token holder can make the daemon keep in memory. */
const MAX_CODES = 32;
const MAX_SESSIONS = 64;

export interface IssuedCode {
  readonly code: string;
  readonly expires_at: string;
}

/**
 * Values are looked up by their SHA-256: the map never holds a usable secret, and a
 * lookup's timing depends on the hash, not on how much of a guess was right.
 */
const keyOf = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');
const randomValue = (): string => randomBytes(32).toString('base64url');

/** Expiry per key, oldest first (Map keeps insertion order). */
class ExpiringSet {
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  add(value: string): number {
    this.sweep();
    while (this.expiries.size >= this.max) {
      const oldest = this.expiries.keys().next().value;
      if (oldest === undefined) break;
      this.expiries.delete(oldest);
    }
    const expires = this.clock.now().getTime() + this.ttlMs;
    this.expiries.set(keyOf(value), expires);
    return expires;
  }

  has(value: string): boolean {
    const expires = this.expiries.get(keyOf(value));
    return expires !== undefined && expires > this.clock.now().getTime();
  }

  /** True when `value` was present and unexpired; it is gone afterwards either way. */
  take(value: string): boolean {
    const present = this.has(value);
    this.expiries.delete(keyOf(value));
    return present;
  }

  private sweep(): void {
    const now = this.clock.now().getTime();
    for (const [key, expires] of this.expiries) if (expires <= now) this.expiries.delete(key);
  }
}

/**
 * How a browser gets in without ever seeing the daemon token: the CLI (which has the
 * token) asks for a one-time login code; the browser trades it at /login for a session
 * id in an HttpOnly cookie. Both live in daemon memory only, so a restart logs out.
 */
export class BrowserSessions {
  private readonly codes: ExpiringSet;
  private readonly sessions: ExpiringSet;

  constructor(
    readonly port: number,
    private readonly clock: Clock = systemClock,
  ) {
    this.codes = new ExpiringSet(clock, LOGIN_CODE_TTL_MS, MAX_CODES);
    this.sessions = new ExpiringSet(clock, SESSION_TTL_MS, MAX_SESSIONS);
  }

  /**
   * Cookies are not isolated by port: two daemons (two COFFER_HOMEs) on one machine
   * would overwrite each other's cookie under a shared name.
   */
  get cookieName(): string {
    return `coffer_session_${this.port}`;
  }

  issueCode(): IssuedCode {
    const code = randomValue();
    const expires = this.codes.add(code);
    return { code, expires_at: new Date(expires).toISOString() };
  }

  /** Single use: a valid code gives a new session id, and is spent. */
  redeem(code: string): string | undefined {
    if (code === '' || !this.codes.take(code)) return undefined;
    const session = randomValue();
    this.sessions.add(session);
    return session;
  }

  isSession(id: string): boolean {
    return id !== '' && this.sessions.has(id);
  }

  /** The session id in a Cookie header, if one is there. */
  sessionFrom(cookieHeader: string | undefined): string | undefined {
    if (cookieHeader === undefined) return undefined;
    for (const part of cookieHeader.split(';')) {
      const [name, ...rest] = part.trim().split('=');
      if (name === this.cookieName) return rest.join('=');
    }
    return undefined;
  }

  /** Set-Cookie for a new session: script-proof, never sent cross-site, whole origin. */
  cookieFor(session: string): string {
    return `${this.cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`;
  }
}
