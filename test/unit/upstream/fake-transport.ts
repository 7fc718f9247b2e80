import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Message = Record<string, unknown>;

/**
 * An SDK Transport played by the test: it records what Coffer sends and delivers what
 * the "upstream" says. By default it answers `initialize` like a well-behaved server.
 */
export class FakeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly sent: Message[] = [];
  protocolVersion: string | undefined;
  closed = false;
  /** What the server answers to initialize (undefined: does not answer). */
  initializeResult: Message | undefined = {
    protocolVersion: '2025-06-18',
    capabilities: { tools: { listChanged: true } },
    serverInfo: { name: 'fake', version: '1.0.0' },
  };
  /** Makes send() fail, as an HTTP POST that was refused. */
  sendError: Error | undefined;

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.sendError !== undefined) return Promise.reject(this.sendError);
    const sent = message as Message;
    this.sent.push(sent);
    if (sent['method'] === 'initialize' && this.initializeResult !== undefined) {
      const result = this.initializeResult;
      void Promise.resolve().then(() => this.deliver({ jsonrpc: '2.0', id: sent['id'], result }));
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

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  deliver(message: Message): void {
    this.onmessage?.(message as JSONRPCMessage);
  }

  /** The last request Coffer sent with this method. */
  lastRequest(method: string): Message & { id: number } {
    const found = this.sent.findLast((message) => message['method'] === method);
    if (found === undefined) throw new Error(`no ${method} was sent`);
    return found as Message & { id: number };
  }

  sentWith(method: string): Message[] {
    return this.sent.filter((message) => message['method'] === method);
  }
}
