import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { WireText } from './serialized-results.js';
import type { TransportParts } from './session.js';

export interface LineTransportOptions extends TransportParts {
  readonly sessionId: string;
  /** Writes one line, its newline included, to the connection. */
  readonly write: (line: WireText) => void;
  /** After each message is written: an answer frees its request's place (flow control). */
  readonly answered?: (message: JSONRPCMessage) => void;
  /** Ends the connection (the session closed). */
  readonly end: () => void;
}

/**
 * The downstream transport of a session on the shim's socket channel: every message the
 * session sends is one line, written as soon as it exists; the connection hands each
 * message it reads to `receive`. No streams, no per-message request.
 */
export class LineTransport implements Transport {
  readonly sessionId: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private closed = false;

  constructor(private readonly options: LineTransportOptions) {
    this.sessionId = options.sessionId;
  }

  start(): Promise<void> {
    this.options.initialized();
    return Promise.resolve();
  }

  receive(message: JSONRPCMessage): void {
    if (!this.closed) this.onmessage?.(message);
  }

  send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.closed) return Promise.reject(new Error('Not connected'));
    this.options.write(this.options.results.encode(message, '\n'));
    this.options.answered?.(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.options.end();
    this.onclose?.();
    return Promise.resolve();
  }
}
