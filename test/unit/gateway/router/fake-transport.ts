import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface Sent {
  readonly message: JSONRPCMessage & Record<string, unknown>;
  readonly related: string | number | undefined;
}

/**
 * A downstream transport in memory: what the session sends is recorded, and `next`
 * waits for a message by event (no timer), so a test reads as the client's view.
 */
export class FakeTransport implements Transport {
  sessionId: string | undefined = 'session-1';
  onclose?: () => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly sent: Sent[] = [];
  closed = false;
  private readonly waiters: { match: (sent: Sent) => boolean; resolve: (sent: Sent) => void }[] =
    [];

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const sent: Sent = {
      message: message,
      related: options?.relatedRequestId ?? undefined,
    };
    this.sent.push(sent);
    for (const waiter of this.waiters.splice(0)) {
      if (waiter.match(sent)) waiter.resolve(sent);
      else this.waiters.push(waiter);
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.onclose?.();
    }
    return Promise.resolve();
  }

  /** The client sends one message. */
  receive(message: Record<string, unknown>): void {
    this.onmessage?.({ jsonrpc: '2.0', ...message } as JSONRPCMessage);
  }

  /** The first message sent (already, or from now on) that matches. */
  next(match: (sent: Sent) => boolean): Promise<Sent> {
    const already = this.sent.find(match);
    if (already !== undefined) return Promise.resolve(already);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** The answer to request `id`. */
  answer(id: string | number): Promise<Sent['message']> {
    return this.next((sent) => sent.message['id'] === id && !('method' in sent.message)).then(
      (sent) => sent.message,
    );
  }

  /** A request and its answer, as a client makes them. */
  async request(
    id: string | number,
    method: string,
    params?: Record<string, unknown>,
  ): Promise<Sent['message']> {
    this.receive(params === undefined ? { id, method } : { id, method, params });
    return this.answer(id);
  }
}
