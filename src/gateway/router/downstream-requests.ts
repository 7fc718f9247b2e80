import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { UpstreamRpcError, type JsonObject } from '../../domain/ports.js';
import type { RequestId } from './method-table.js';
import type { SendToClient } from './message-router.js';

interface Waiter {
  readonly resolve: (result: JsonObject) => void;
  readonly reject: (error: unknown) => void;
}

export interface OutboundOptions {
  readonly signal: AbortSignal;
  /** The client request this one belongs to: on HTTP it rides on that request's stream. */
  readonly relatedRequestId?: RequestId;
}

/**
 * Coffer's requests to the client of one session (an upstream's sampling, elicitation or
 * roots question, relayed). Ids are Coffer's own counter, so they never clash with the
 * client's; there is no timeout: a person may take minutes to answer, and the upstream's
 * own cancel (the signal) is what ends a question nobody answers.
 */
export class DownstreamRequests {
  private next = 0;
  private readonly waiting = new Map<RequestId, Waiter>();

  constructor(private readonly send: SendToClient) {}

  request(
    method: string,
    params: JsonObject | undefined,
    options: OutboundOptions,
  ): Promise<JsonObject> {
    const { signal, relatedRequestId } = options;
    if (signal.aborted) return Promise.reject(abortError(signal));
    const id = this.next++;
    return new Promise<JsonObject>((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.waiting.delete(id)) return;
        void this.send(
          {
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: String(signal.reason) },
          },
          relatedRequestId,
        ).catch(() => undefined);
        reject(abortError(signal));
      };
      const done =
        <T>(settle: (value: T) => void) =>
        (value: T): void => {
          signal.removeEventListener('abort', onAbort);
          settle(value);
        };
      this.waiting.set(id, { resolve: done(resolve), reject: done(reject) });
      signal.addEventListener('abort', onAbort, { once: true });
      const message: JSONRPCMessage =
        params === undefined
          ? { jsonrpc: '2.0', id, method }
          : { jsonrpc: '2.0', id, method, params };
      this.send(message, relatedRequestId).catch((error: unknown) => {
        // The POST it would ride on is gone, or the connection: nobody can answer.
        if (this.waiting.delete(id)) done(reject)(error);
      });
    });
  }

  /** The client's answer to one of these requests; an answer to nothing is dropped. */
  settle(message: JSONRPCMessage): void {
    const id = 'id' in message ? message.id : undefined;
    if (id === undefined) return;
    const waiter = this.waiting.get(id);
    if (waiter === undefined) return;
    this.waiting.delete(id);
    if ('error' in message) {
      const { code, message: text, data } = message.error;
      waiter.reject(new UpstreamRpcError(code, text, data));
    } else if ('result' in message && isObject(message.result)) {
      waiter.resolve(message.result);
    } else {
      waiter.reject(new UpstreamRpcError(-32603, 'The client answered without a result object'));
    }
  }

  /** The session ended: nothing pending will be answered. */
  closeAll(): void {
    for (const waiter of this.waiting.values())
      waiter.reject(new UpstreamRpcError(-32000, 'Connection closed'));
    this.waiting.clear();
  }
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new Error(String(signal.reason ?? 'aborted'));
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
