import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { CancelSignal } from '../../domain/cancel-signal.js';
import { PendingRequests } from '../../domain/pending-requests.js';
import { UpstreamRpcError, type JsonObject } from '../../domain/ports.js';
import type { RequestId } from './method-table.js';
import type { SendToClient } from './message-router.js';

export interface OutboundOptions {
  readonly signal: CancelSignal;
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
  private readonly pending = new PendingRequests();

  constructor(private readonly send: SendToClient) {}

  request(
    method: string,
    params: JsonObject | undefined,
    options: OutboundOptions,
  ): Promise<JsonObject> {
    const { signal, relatedRequestId } = options;
    if (signal.aborted) return Promise.reject(abortError(signal));
    const onAbort = (): void => {
      const error = abortError(signal);
      if (!this.pending.fail(id, error)) return;
      const cancel = { requestId: id, reason: error.message };
      void this.send(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: cancel },
        relatedRequestId,
      ).catch(() => undefined);
    };
    // Not aborted yet (checked above), so onAbort cannot run before `id` is known.
    const { id, answer } = this.pending.open(signal.onAbort(onAbort));
    const message: JSONRPCMessage =
      params === undefined
        ? { jsonrpc: '2.0', id, method }
        : { jsonrpc: '2.0', id, method, params };
    // The POST it would ride on is gone, or the connection: nobody can answer.
    this.send(message, relatedRequestId).catch((error: unknown) => this.pending.fail(id, error));
    return answer;
  }

  /** The client's answer to one of these requests; an answer to nothing is dropped. */
  settle(message: JSONRPCMessage): void {
    const id = 'id' in message ? message.id : undefined;
    if (typeof id !== 'number') return;
    if ('result' in message && !isObject(message.result)) {
      this.pending.fail(
        id,
        new UpstreamRpcError(-32603, 'The client answered without a result object'),
      );
      return;
    }
    this.pending.answer(message as Parameters<PendingRequests['answer']>[0]);
  }

  /** The session ended: nothing pending will be answered. */
  closeAll(): void {
    this.pending.failAll(new UpstreamRpcError(-32000, 'Connection closed'));
  }
}

function abortError(signal: CancelSignal): Error {
  const { reason } = signal;
  if (reason instanceof Error) return reason;
  return new Error(typeof reason === 'string' ? reason : 'aborted');
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
