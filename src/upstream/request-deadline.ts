import { CofferError } from '../domain/errors.js';
import type { JsonObject } from '../domain/ports.js';
import { isObject } from './jsonrpc-envelope.js';

/**
 * The timeout of one upstream request: an idle limit that each progress notification
 * resets (a long tool that reports progress is alive), and an overall cap.
 */
export class RequestDeadline {
  private expired = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly capTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    capMs: number | undefined,
    private readonly onExpire: (reason: 'idle' | 'cap') => void,
  ) {
    this.arm();
    if (capMs !== undefined) {
      this.capTimer = setTimeout(() => this.expire('cap'), capMs);
      this.capTimer.unref();
    }
  }

  /** Progress arrived: the request is alive (a late one, after the deadline, changes nothing). */
  touch(): void {
    if (!this.expired) this.arm();
  }

  clear(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    if (this.capTimer !== undefined) clearTimeout(this.capTimer);
  }

  private arm(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.expire('idle'), this.idleMs);
    this.idleTimer.unref();
  }

  private expire(reason: 'idle' | 'cap'): void {
    this.expired = true;
    this.clear();
    this.onExpire(reason);
  }
}

/** The error of a request whose deadline passed. */
export function timeoutError(server: string, method: string, reason: 'idle' | 'cap'): CofferError {
  const what = reason === 'idle' ? 'went silent' : 'took longer than the overall limit';
  return new CofferError('UPSTREAM_TIMEOUT', `Upstream "${server}" ${what} on ${method}`, {
    data: { server, method },
  });
}

export type ProgressToken = string | number;

/** The client's progress token of a request: it asks for progress, which resets the idle deadline. */
export function progressTokenOf(params: JsonObject | undefined): ProgressToken | undefined {
  const meta = params?.['_meta'];
  if (!isObject(meta)) return undefined;
  const token = meta['progressToken'];
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/** The params with `token` as their progress token, the rest of `_meta` kept. */
export function withProgressToken(params: JsonObject | undefined, token: number): JsonObject {
  const meta = params?.['_meta'];
  return { ...params, _meta: { ...(isObject(meta) ? meta : {}), progressToken: token } };
}
