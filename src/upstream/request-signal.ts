import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { watchedBody } from './watched-body.js';

/**
 * The abort signal of one HTTP request to a remote upstream: it follows the transport's
 * signal (closing the connection still aborts the request) until the response has ended,
 * then lets go of it.
 *
 * The SDK's HTTP client transports hand fetch their own long-lived signal for every
 * request. Node's fetch (undici) adds an abort listener to that signal per request,
 * removes it only once the Request is garbage-collected, and lists every listener on the
 * signal (`getEventListeners`) before adding the next. On a connection that stays open
 * for hours each call then costs more than the one before, and past 1,500 listeners Node
 * warns on every call. `AbortSignal.any` is no way out on Node 20: the source signal keeps
 * an entry for every signal made from it for as long as it lives.
 */
export class RequestSignal {
  private readonly controller = new AbortController();
  private readonly follow: (() => void) | undefined;
  private cancelledHere = false;

  constructor(private readonly parent: AbortSignal | null | undefined) {
    if (parent === null || parent === undefined) return;
    if (parent.aborted) {
      this.controller.abort(parent.reason);
      return;
    }
    const follow = () => this.controller.abort(parent.reason);
    parent.addEventListener('abort', follow, { once: true });
    this.follow = follow;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when `cancel` aborted the request, not the transport. */
  get cancelled(): boolean {
    return this.cancelledHere;
  }

  /** Aborts this request alone (a 2026-07-28 request cancelled by closing its stream). */
  cancel(reason: Error): void {
    this.cancelledHere = true;
    this.controller.abort(reason);
  }

  /** The response ended, or never came: the transport's signal no longer holds this request. */
  release(): void {
    if (this.follow !== undefined) this.parent?.removeEventListener('abort', this.follow);
  }
}

/**
 * `base`, each request under a signal of its own, let go of when its response ends: the
 * POSTs (one per message) and the GET streams a server may close and the SDK reopen.
 */
export function withOwnSignals(base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    if (init?.signal === undefined || init.signal === null) return base(url, init);
    const own = new RequestSignal(init.signal);
    try {
      const response = await base(url, { ...init, signal: own.signal });
      return watchedBody(response, { ended: () => own.release() });
    } catch (error) {
      own.release();
      throw error;
    }
  };
}
