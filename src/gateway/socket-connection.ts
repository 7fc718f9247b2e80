import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CofferError } from '../domain/errors.js';
import { decodeJsonText } from '../domain/json-text.js';
import type { JsonObject } from '../domain/ports.js';
import type { Logger } from '../observability/logger.js';
import type { Gateway } from './gateway.js';
import { MAX_BODY_BYTES } from './json-body.js';
import { ConnectionFlow, type FlowSocket } from './connection-flow.js';
import { classifyMessage, unsupported } from './era-classification.js';
import { isRequest, messageProblem, requestIdOf } from './json-rpc-shape.js';
import { LineReader } from './line-reader.js';
import { LineTransport } from './line-transport.js';
import type { MessageRouter } from './router/message-router.js';
import { toJsonRpcError } from './rpc-error-mapping.js';
import type { WireText } from './serialized-results.js';
import type { Session } from './session.js';
import { serverRefusal } from './endpoint-server.js';
import { parseHello, READY_LINE, refusedLine, type Hello } from './socket-hello.js';

/** The part of a socket (net.Socket) a connection uses. */
export interface LineSocket extends FlowSocket {
  write(data: string | Uint8Array): unknown;
  cork(): unknown;
  uncork(): unknown;
  end(): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'drain', listener: () => void): unknown;
}

export interface SocketConnectionOptions {
  readonly gateway: Gateway;
  /** Constant-time comparison with the daemon's token. */
  readonly tokenMatches: (given: string) => boolean;
  /** False once the daemon is stopping: new hellos are refused with DAEMON_UNAVAILABLE. */
  readonly accepting: () => boolean;
  readonly logger: Logger;
}

/**
 * 'greeting': a hello naming a server, while the daemon looks it up; 'modern': 2026-07-28
 * requests, each answered on its own (no session).
 */
type State = 'hello' | 'greeting' | 'waiting' | 'opening' | 'open' | 'modern' | 'closed';

const rpcError = (id: unknown, code: number, message: string, data?: unknown): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: id ?? null,
    error: data === undefined ? { code, message } : { code, message, data },
  });

/**
 * One connection of the shim's socket channel (docs/SHIM-SOCKET contract): a hello line,
 * then either ONE downstream session whose messages are lines both ways (2025: the first
 * request is `initialize`, as on /mcp; the connection closing ends the session and its
 * upstreams), or 2026-07-28 requests, each carrying its own envelope, answered by the
 * stateless service of the hello's scope (docs/ARCHITECTURE.md "Two eras").
 */
export class SocketConnection {
  private state: State = 'hello';
  private hello: Hello | undefined;
  private transport: LineTransport | undefined;
  private session: Session | undefined;
  private modern: MessageRouter | undefined;
  private readonly queue: JSONRPCMessage[] = [];
  /** Lines that came while the hello was being checked, read once it is answered. */
  private readonly early: Buffer[] = [];
  private readonly flow: ConnectionFlow;

  constructor(
    private readonly socket: LineSocket,
    private readonly options: SocketConnectionOptions,
  ) {
    this.flow = new ConnectionFlow(socket);
    const reader = new LineReader({
      maxBytes: MAX_BODY_BYTES,
      onLine: (line) => this.line(line),
      onTooLarge: () =>
        this.write(
          rpcError(
            null,
            -32600,
            `Message too large: Coffer accepts at most ${MAX_BODY_BYTES / 1024 / 1024} MiB per MCP message; pass large content by reference (a file path or URI) instead`,
          ),
        ),
    });
    socket.on('data', (chunk) => reader.feed(chunk));
    socket.on('error', (error) => options.logger.debug({ err: error }, 'socket channel error'));
    socket.on('close', () => void this.closed());
  }

  private write(line: string): void {
    this.writeRaw(`${line}\n`);
  }

  /** Text or bytes that end with their own newline (a session's message, LineTransport). */
  private writeRaw(data: WireText): void {
    if (this.state === 'closed') return;
    if (typeof data === 'string') this.socket.write(data);
    else {
      // Chunks around a kept result's bytes: corked, so they leave in one writev, uncopied.
      this.socket.cork();
      for (const chunk of data) this.socket.write(chunk);
      this.socket.uncork();
    }
    // A shim that is not reading gets no new requests read from it either.
    this.flow.update();
  }

  /** What the session was handed: a request holds its bytes until answered or cancelled. */
  private track(message: JSONRPCMessage, bytes: number): void {
    if (isRequest(message)) return this.flow.requested(message.id, bytes);
    if (!('method' in message) || message.method !== 'notifications/cancelled') return;
    const id = (message.params as JsonObject | undefined)?.['requestId'];
    if (typeof id === 'string' || typeof id === 'number') this.flow.settled(id);
  }

  /** An answer the session wrote frees its request's bytes. */
  private answered(message: JSONRPCMessage): void {
    if ('method' in message || !('id' in message)) return;
    if (typeof message.id === 'string' || typeof message.id === 'number')
      this.flow.settled(message.id);
  }

  private line(line: Buffer): void {
    if (this.state === 'closed') return;
    if (this.state === 'hello') return this.greet(line);
    if (this.state === 'greeting') return void this.early.push(line);
    const decoded = decodeJsonText(line);
    if (!decoded.ok) {
      const parse = decoded.problem === 'syntax' || decoded.problem === 'encoding';
      return this.write(
        rpcError(
          null,
          parse ? -32700 : -32600,
          `${parse ? 'Parse error' : 'Invalid Request'}: ${decoded.message}`,
        ),
      );
    }
    const items: unknown[] = Array.isArray(decoded.value) ? decoded.value : [decoded.value];
    if (items.length === 0)
      return this.write(rpcError(null, -32600, 'Invalid Request: an empty batch'));
    const bytes = Math.ceil(line.length / items.length);
    for (const item of items) {
      const problem = messageProblem(item);
      if (problem !== undefined)
        this.write(rpcError(requestIdOf(item), -32600, `Invalid Request: ${problem}`));
      else this.message(item as JSONRPCMessage, bytes);
    }
  }

  private greet(line: Buffer): void {
    if (!this.options.accepting())
      return this.refuse(
        new CofferError('DAEMON_UNAVAILABLE', 'The Coffer daemon is shutting down', {
          hint: 'connect again: a new daemon starts on demand',
        }),
      );
    try {
      this.hello = parseHello(line, this.options.tokenMatches);
    } catch (error) {
      return this.refuse(
        error instanceof CofferError ? error : new CofferError('INVALID_INPUT', 'Malformed hello'),
      );
    }
    const { scope } = this.hello;
    if (scope.kind !== 'single') return this.ready();
    this.state = 'greeting';
    void this.checkServer(scope.server);
  }

  /**
   * A shim for one server (`coffer shim --server x`) is refused at its hello when x is not
   * a server Coffer has and serves, as `/servers/x/mcp` is: it would get a session that
   * lists nothing, and a typo would look like a server without tools.
   */
  private async checkServer(server: string): Promise<void> {
    const refusal = await serverRefusal(this.options.gateway.context, server).catch(
      () => undefined,
    );
    if (this.state !== 'greeting') return;
    if (refusal !== undefined) return this.refuse(refusal.error);
    this.ready();
    for (const line of this.early.splice(0)) this.line(line);
  }

  private ready(): void {
    this.write(READY_LINE);
    this.state = 'waiting';
  }

  private refuse(error: CofferError): void {
    this.options.logger.warn({ code: error.code }, `socket hello refused: ${error.message}`);
    this.write(refusedLine(error));
    this.state = 'closed';
    this.socket.end();
  }

  private message(message: JSONRPCMessage, bytes: number): void {
    if (this.state === 'open') {
      this.track(message, bytes);
      return this.transport?.receive(message);
    }
    if (this.state === 'opening') {
      this.track(message, bytes);
      return void this.queue.push(message);
    }
    const era = classifyMessage(message);
    if (era.era === 'rejected') {
      const { code, message: text, data } = era.error;
      return this.write(rpcError(isRequest(message) ? message.id : null, code, text, data));
    }
    if ('method' in message && message.method === 'initialize' && 'id' in message) {
      if (era.era === 'legacy') return void this.open(message);
    }
    if (era.era === 'modern' || this.state === 'modern') return this.stateless(message, bytes);
    if (!isRequest(message)) return;
    // MCP lets a client ping before initialize (lifecycle: "other than pings"), as an
    // upstream on stdio would answer it; everything else needs the session.
    if (message.method === 'ping')
      return this.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
    this.write(rpcError(message.id, -32000, 'Bad Request: no session; send initialize first'));
  }

  /** A message of the 2026-07-28 era: each request must carry its envelope. */
  private stateless(message: JSONRPCMessage, bytes: number): void {
    if (isRequest(message) && classifyMessage(message).era === 'legacy') {
      const { code, message: text, data } = unsupported(undefined).error;
      return this.write(rpcError(message.id, code, text, data));
    }
    if (this.modern === undefined) {
      const hello = this.hello!;
      const service = this.options.gateway.stateless.get(hello.scope, hello.mode);
      this.modern = service.channel((out) => {
        this.writeRaw(service.serialized.encode(out, '\n'));
        this.answered(out);
        return Promise.resolve();
      });
      this.state = 'modern';
    }
    this.track(message, bytes);
    this.modern.receive(message);
  }

  private async open(initialize: JSONRPCMessage & { id: string | number }): Promise<void> {
    const hello = this.hello!;
    // A client that probed with server/discover may still initialize after all.
    this.modern?.close();
    this.modern = undefined;
    this.state = 'opening';
    const params = ('params' in initialize ? initialize.params : undefined) as
      JsonObject | undefined;
    const capabilities = (params?.['capabilities'] ?? {}) as JsonObject;
    try {
      this.session = await this.options.gateway.open(
        hello.scope,
        capabilities,
        (parts) => {
          this.transport = new LineTransport({
            ...parts,
            sessionId: randomUUID(),
            write: (line) => this.writeRaw(line),
            answered: (message) => this.answered(message),
            end: () => this.end(),
          });
          return this.transport;
        },
        hello.mode,
      );
    } catch (error) {
      const rpc = toJsonRpcError(error);
      this.write(rpcError(initialize.id, rpc.code, rpc.message, rpc.data));
      this.transport = undefined;
      if (this.state === 'opening') this.state = 'waiting';
      // What came while it opened fails with it: each request still gets its one answer.
      for (const queued of this.queue.splice(0)) {
        if (!isRequest(queued)) continue;
        this.write(rpcError(queued.id, rpc.code, rpc.message, rpc.data));
        this.flow.settled(queued.id);
      }
      return;
    }
    // The client may have left while the session was starting.
    if ((this.state as State) === 'closed') return void (await this.session.close());
    this.state = 'open';
    this.transport?.receive(initialize);
    for (const queued of this.queue.splice(0)) this.transport?.receive(queued);
  }

  /** The session ended (closed by the reaper, an admin change or the daemon stopping). */
  private end(): void {
    // A session that failed to start is closed by the gateway: the client may initialize again.
    if (this.state === 'closed' || this.state === 'opening') return;
    this.state = 'closed';
    this.socket.end();
  }

  private async closed(): Promise<void> {
    const wasOpen = this.state;
    this.state = 'closed';
    this.modern?.close();
    if (wasOpen === 'open') await this.transport?.close();
  }
}

/** The daemon's handler of new socket-channel connections: each one gets its own session. */
export function createSocketEndpoint(
  options: SocketConnectionOptions,
): (socket: LineSocket) => void {
  return (socket) => {
    // Lives as long as its socket: the socket's listeners hold it.
    new SocketConnection(socket, options);
  };
}
