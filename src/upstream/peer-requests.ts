/**
 * Requests an upstream sends Coffer (sampling, elicitation, roots, ping): each goes to
 * the session's peer (the downstream client) and its answer or error goes back under the
 * UPSTREAM's id. The upstream cancelling its own request aborts the peer request, and
 * then nothing is answered (the spec's rule for a cancelled request).
 */
import { Cancellation, type CancelSignal } from '../domain/cancel-signal.js';
import type { JsonObject, UpstreamPeer } from '../domain/ports.js';
import type {
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcRequest,
} from './jsonrpc-envelope.js';

const INTERNAL_ERROR = -32603;

export class PeerRequests {
  private readonly inFlight = new Map<JsonRpcId, Cancellation>();

  constructor(
    private readonly peer: UpstreamPeer,
    private readonly send: (message: JsonRpcMessage) => Promise<void>,
  ) {}

  handle(request: JsonRpcRequest): void {
    const { id, method, params } = request;
    // Liveness checks are answered here: they need no client.
    if (method === 'ping') return this.reply(id, { result: {} });
    const cancellation = new Cancellation();
    this.inFlight.set(id, cancellation);
    const answered = (reply: { result: JsonObject } | { error: JsonRpcErrorObject }): void => {
      if (this.inFlight.get(id) === cancellation) this.inFlight.delete(id);
      if (!cancellation.aborted) this.reply(id, reply);
    };
    void this.ask(method, params, cancellation).then(
      (result) => answered({ result }),
      (error: unknown) => answered({ error: errorAnswer(error) }),
    );
  }

  private async ask(
    method: string,
    params: JsonObject | undefined,
    signal: CancelSignal,
  ): Promise<JsonObject> {
    // async, so a peer that throws instead of rejecting is answered all the same.
    return this.peer.request(method, params, signal);
  }

  /** The upstream's `notifications/cancelled` for one of its requests. */
  cancel(id: unknown, reason: unknown): void {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const cancellation = this.inFlight.get(id);
    if (cancellation === undefined) return;
    this.inFlight.delete(id);
    cancellation.abort(
      new Error(typeof reason === 'string' ? reason : 'cancelled by the upstream'),
    );
  }

  /** The connection ended: nobody is left to answer. */
  abortAll(reason: Error): void {
    for (const cancellation of this.inFlight.values()) cancellation.abort(reason);
    this.inFlight.clear();
  }

  private reply(id: JsonRpcId, body: { result: JsonObject } | { error: JsonRpcErrorObject }): void {
    // A connection that closed meanwhile cannot take the answer; nothing waits for it.
    this.send({ jsonrpc: '2.0', id, ...body }).catch(() => undefined);
  }
}

/**
 * A JSON-RPC error object for what the peer threw: a JSON-RPC error keeps its code, message
 * and data (the SDK's "MCP error <code>: " prefix removed, so it does not nest), anything
 * else is an internal error with its message.
 */
export function errorAnswer(error: unknown): JsonRpcErrorObject {
  if (!(error instanceof Error)) return { code: INTERNAL_ERROR, message: 'Internal error' };
  const { code, data } = error as { code?: unknown; data?: unknown };
  if (typeof code !== 'number' || !Number.isSafeInteger(code))
    return { code: INTERNAL_ERROR, message: error.message || 'Internal error' };
  const prefix = `MCP error ${code}: `;
  const message = error.message.startsWith(prefix)
    ? error.message.slice(prefix.length)
    : error.message;
  return data === undefined ? { code, message } : { code, message, data };
}
