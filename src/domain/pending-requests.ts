/**
 * The requests Coffer sent a peer (an upstream, or a downstream client) and still waits
 * on, by Coffer's own request id.
 * An answer settles its request synchronously, in the order messages arrive, so what
 * came before it on the wire (the last progress) was handled first. An answer to an id
 * no longer here (cancelled, timed out) is dropped: the spec says it should not come, and
 * the client must never see it.
 */
import type { JsonObject } from './ports.js';
import { UpstreamRpcError } from './ports.js';

/** The part of a JSON-RPC response that settles a request. */
export interface SettlingResponse {
  readonly id?: unknown;
  readonly result?: JsonObject;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

interface Waiting {
  readonly resolve: (result: JsonObject) => void;
  readonly reject: (error: unknown) => void;
  /** Runs once, synchronously, when the request settles in any way. */
  readonly settled: () => void;
}

export interface OpenedRequest {
  readonly id: number;
  readonly answer: Promise<JsonObject>;
}

export class PendingRequests {
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();

  get size(): number {
    return this.waiting.size;
  }

  /** A new id and the promise of its answer; `settled` runs when it is answered or failed. */
  open(settled: () => void = () => undefined): OpenedRequest {
    const id = this.nextId++;
    const answer = new Promise<JsonObject>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, settled });
    });
    return { id, answer };
  }

  /** Settles the request the response answers; false when nobody waits for it any more. */
  answer(response: SettlingResponse): boolean {
    const id = response.id;
    if (typeof id !== 'number') return false;
    const waiting = this.take(id);
    if (waiting === undefined) return false;
    const { error, result } = response;
    if (error !== undefined)
      waiting.reject(new UpstreamRpcError(error.code, error.message, error.data));
    else waiting.resolve(result ?? {});
    return true;
  }

  /** Fails one request (timed out, cancelled, not sent); true if it was still waiting. */
  fail(id: number, error: unknown): boolean {
    const waiting = this.take(id);
    waiting?.reject(error);
    return waiting !== undefined;
  }

  /** The connection is gone: every request fails at once. */
  failAll(error: unknown): void {
    for (const id of [...this.waiting.keys()]) this.fail(id, error);
  }

  private take(id: number): Waiting | undefined {
    const waiting = this.waiting.get(id);
    if (waiting === undefined) return undefined;
    this.waiting.delete(id);
    waiting.settled();
    return waiting;
  }
}
