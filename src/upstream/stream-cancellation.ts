/**
 * Cancellation the 2026-07-28 way over HTTP: a request is cancelled by closing its own
 * POST (its response stream), since a stateless server cannot route a
 * `notifications/cancelled` POST to another request. Coffer's connection still says
 * `notifications/cancelled` (the 2025 way, and stdio's); Coffer's fetch
 * (src/upstream/modern-http-fetch.ts) turns it into closing that request's POST.
 *
 * The closed stream ends quietly for the SDK transport reading it (no error): an error
 * there reads as a broken connection and would end the connection every session shares.
 */
import type { JsonRpcId } from './jsonrpc-envelope.js';
import { RequestSignal } from './request-signal.js';
import { watchedBody } from './watched-body.js';

export class StreamCancellation {
  private readonly open = new Map<JsonRpcId, RequestSignal>();

  /** A signal for one request's POST, aborted by `cancel` (or by the transport's own signal). */
  track(id: JsonRpcId, signal: AbortSignal | null | undefined): AbortSignal {
    const own = new RequestSignal(signal);
    this.open.set(id, own);
    return own.signal;
  }

  /** Closes the request's POST; false when no such request is open. */
  cancel(id: unknown): boolean {
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const own = this.open.get(id);
    if (own === undefined) return false;
    this.forget(id);
    own.cancel(new Error('cancelled by the client'));
    return true;
  }

  /** The request ended (its answer read, or failed before it began): nothing left to cancel. */
  forget(id: JsonRpcId): void {
    this.open.get(id)?.release();
    this.open.delete(id);
  }

  /** The response, its body ending quietly when the request is cancelled, forgotten at its end. */
  settle(id: JsonRpcId, response: Response): Response {
    const own = this.open.get(id);
    if (own === undefined) return response;
    return watchedBody(response, { ended: () => this.forget(id), quiet: () => own.cancelled });
  }
}
