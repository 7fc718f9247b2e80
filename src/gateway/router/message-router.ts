import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Cancellation, type CancelSignal } from '../../domain/cancel-signal.js';
import type { JsonObject } from '../../domain/ports.js';
import { childTrace, type TraceContext } from '../../observability/trace-context.js';
import { toJsonRpcError } from '../rpc-error-mapping.js';
import type { DownstreamRequests } from './downstream-requests.js';
import type { MethodTable, RequestContext, RequestId } from './method-table.js';

/** Sends one message to the client; `relatedRequestId` picks the HTTP stream it rides on. */
export type SendToClient = (message: JSONRPCMessage, relatedRequestId?: RequestId) => Promise<void>;

export interface MessageRouterOptions {
  readonly methods: MethodTable;
  readonly send: SendToClient;
  /** Coffer's own requests to the client (sampling, elicitation, roots): their answers. */
  readonly outbound: DownstreamRequests;
  /** The client cancelled `id`: it gets no answer, so its HTTP exchange stops waiting. */
  readonly onCancelled?: (id: RequestId) => void;
  /** A request failed: for the daemon log (the client gets the mapped error). */
  readonly onFailure?: (method: string, error: unknown, trace: TraceContext) => void;
  /** Each request's span, under the trace it arrived in if any (default: childTrace). */
  readonly traceFor?: (parent: TraceContext | undefined) => TraceContext;
}

/**
 * Every JSON-RPC message of one downstream session goes through here: requests to their
 * handler in the method table, notifications to theirs, answers to Coffer's own requests
 * to their waiter. Cancellation and progress are the router's, so no handler repeats them:
 * a cancelled request is aborted and never answered, as the spec asks.
 */
export class MessageRouter {
  private readonly running = new Map<RequestId, Cancellation>();
  private closed = false;

  constructor(private readonly options: MessageRouterOptions) {}

  /** `parent`: the trace of the HTTP request the message came in, continued by its span. */
  receive(message: JSONRPCMessage, parent?: TraceContext): void {
    if (this.closed) return;
    if (!('method' in message)) return this.options.outbound.settle(message);
    const params = 'params' in message ? (message.params as JsonObject | undefined) : undefined;
    if ('id' in message) return this.request(message.id, message.method, params, parent);
    if (message.method === 'notifications/cancelled') return this.cancel(params);
    this.options.methods.notifications.get(message.method)?.(params);
  }

  /** The session ended: every running request is aborted and none is answered. */
  close(): void {
    this.closed = true;
    for (const cancellation of this.running.values()) cancellation.abort();
    this.running.clear();
  }

  private request(
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    parent: TraceContext | undefined,
  ): void {
    const handler = this.options.methods.requests.get(method);
    if (handler === undefined) {
      return this.deliver({
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: `Method not found: ${method}` },
      });
    }
    const cancellation = new Cancellation();
    this.running.set(id, cancellation);
    const trace = (this.options.traceFor ?? childTrace)(parent);
    const context = this.contextFor(id, params, cancellation, trace);
    void this.answer(method, () => handler(params, context), cancellation, context);
  }

  private async answer(
    method: string,
    run: () => Promise<JsonObject> | JsonObject,
    cancellation: Cancellation,
    { id, trace }: RequestContext,
  ): Promise<void> {
    try {
      const result = await run();
      if (!cancellation.aborted) this.deliver({ jsonrpc: '2.0', id, result });
    } catch (error) {
      if (cancellation.aborted) return;
      this.options.onFailure?.(method, error, trace);
      const { code, message, data } = toJsonRpcError(error);
      const body = data === undefined ? { code, message } : { code, message, data };
      this.deliver({ jsonrpc: '2.0', id, error: body });
    } finally {
      if (this.running.get(id) === cancellation) this.running.delete(id);
    }
  }

  /** A client that went away cannot be told anything: a failed send is dropped. */
  private deliver(message: JSONRPCMessage, relatedRequestId?: RequestId): void {
    void this.options.send(message, relatedRequestId).catch(() => undefined);
  }

  private contextFor(
    id: RequestId,
    params: JsonObject | undefined,
    signal: CancelSignal,
    trace: TraceContext,
  ): RequestContext {
    const notify = (method: string, body: JsonObject): void => {
      if (!signal.aborted) this.deliver({ jsonrpc: '2.0', method, params: body }, id);
    };
    const meta = params?.['_meta'];
    const token =
      meta !== null && typeof meta === 'object' ? (meta as JsonObject)['progressToken'] : undefined;
    // One shape with or without a token: this runs for every request.
    const onProgress =
      token === undefined
        ? undefined
        : (progress: JsonObject): void =>
            notify('notifications/progress', { ...progress, progressToken: token });
    return { id, signal, notify, onProgress, trace };
  }

  private cancel(params: JsonObject | undefined): void {
    const id = params?.['requestId'];
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const cancellation = this.running.get(id);
    if (cancellation === undefined) return;
    this.running.delete(id);
    cancellation.abort(params?.['reason']);
    this.options.onCancelled?.(id);
  }
}
