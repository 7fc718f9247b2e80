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

export class StreamCancellation {
  private readonly open = new Map<JsonRpcId, AbortController>();

  /** A signal for one request's POST, aborted by `cancel` (or by the caller's own signal). */
  track(id: JsonRpcId, signal: AbortSignal | null | undefined): AbortSignal {
    const controller = new AbortController();
    this.open.set(id, controller);
    return signal === null || signal === undefined
      ? controller.signal
      : AbortSignal.any([signal, controller.signal]);
  }

  /** Closes the request's POST; false when no such request is open. */
  cancel(id: unknown): boolean {
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const controller = this.open.get(id);
    if (controller === undefined) return false;
    this.open.delete(id);
    controller.abort(new Error('cancelled by the client'));
    return true;
  }

  /** The request failed before its answer began: nothing left to cancel. */
  forget(id: JsonRpcId): void {
    this.open.delete(id);
  }

  /** The response, its body ending quietly when the request is cancelled, forgotten at its end. */
  settle(id: JsonRpcId, response: Response): Response {
    const controller = this.open.get(id);
    const body = response.body;
    if (controller === undefined || body === null) {
      this.forget(id);
      return response;
    }
    const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
    const quiet = new ReadableStream<Uint8Array>({
      pull: async (stream) => {
        try {
          const { done, value } = await reader.read();
          if (!done) return stream.enqueue(value);
          this.forget(id);
          stream.close();
        } catch (error) {
          this.forget(id);
          if (controller.signal.aborted) stream.close();
          else stream.error(error);
        }
      },
      cancel: async (reason) => {
        this.forget(id);
        await reader.cancel(reason);
      },
    });
    const { status, statusText, headers } = response;
    return new Response(quiet, { status, statusText, headers });
  }
}
