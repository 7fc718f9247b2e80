import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CofferError } from '../domain/errors.js';
import {
  UpstreamRpcError,
  type JsonObject,
  type UpstreamConnection,
  type UpstreamPeer,
  type UpstreamRequestOptions,
} from '../domain/ports.js';
import { handshakeError, startReport } from './handshake-error.js';
import { initializeUpstream } from './initialize-handshake.js';
import {
  isNotification,
  isObject,
  isRequest,
  type JsonRpcMessage,
  type JsonRpcNotification,
} from './jsonrpc-envelope.js';
import { PeerRequests } from './peer-requests.js';
import { PendingRequests } from '../domain/pending-requests.js';
import { RequestDeadline } from './request-deadline.js';
import { fromSdkError, isBrokenStream } from './rpc-error.js';

type ProgressToken = string | number;

export interface JsonRpcConnectionOptions {
  readonly server: string;
  readonly transport: Transport;
  readonly clientCapabilities: JsonObject;
  readonly peer: UpstreamPeer;
  readonly clientInfo: { name: string; version: string };
  readonly defaultTimeoutMs: number;
  /** Bounds the handshake: the transport's start (a stdio upstream's spawn) and initialize. */
  readonly connectTimeoutMs: number;
  readonly maxTotalTimeoutMs?: number;
  /** Aborting it during the handshake closes the transport (and kills a stdio child). */
  readonly signal?: AbortSignal;
}

/**
 * One MCP client session with one upstream, on an SDK Transport, relaying raw JSON-RPC:
 * Coffer's own request ids, results passed on as they came (no schema parse), progress
 * routed synchronously by the client's own token, cancellation forwarded with the
 * upstream's id, and the upstream's requests and notifications handed to the session's
 * peer. The SDK keeps what it is good at here: the HTTP transports and their OAuth.
 */
export class JsonRpcUpstreamConnection implements UpstreamConnection {
  readonly server: string;
  readonly closed: Promise<void>;
  private capabilities: JsonObject = {};
  private readonly pending = new PendingRequests();
  private readonly peerRequests: PeerRequests;
  private readonly progressRoutes = new Map<ProgressToken, (params: JsonObject) => void>();
  private established = false;
  private isClosed = false;
  private markClosed!: () => void;

  private constructor(private readonly options: JsonRpcConnectionOptions) {
    this.server = options.server;
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    this.peerRequests = new PeerRequests(options.peer, (message) => this.send(message));
    const { transport } = options;
    transport.onmessage = (message) => this.receive(message as JsonRpcMessage);
    transport.onclose = () => this.ended();
    // A cut stream fails every request waiting on this connection at once, instead of
    // leaving them to their timeout; the pool then forgets the connection.
    transport.onerror = (error) => {
      if (this.established && isBrokenStream(error)) void this.close().catch(() => undefined);
    };
  }

  static async open(options: JsonRpcConnectionOptions): Promise<JsonRpcUpstreamConnection> {
    const connection = new JsonRpcUpstreamConnection(options);
    const abort = () => void connection.close();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      options.signal?.throwIfAborted();
      await connection.handshake();
    } catch (error) {
      // Read before closing: closing ends the process, which would hide how it ended.
      const report = startReport(options.transport);
      await connection.close();
      throw handshakeError(options.server, error, report, options.connectTimeoutMs);
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
    connection.established = true;
    return connection;
  }

  get serverCapabilities(): JsonObject {
    return this.capabilities;
  }

  async request(
    method: string,
    params: JsonObject | undefined,
    options: UpstreamRequestOptions = {},
  ): Promise<JsonObject> {
    try {
      if (this.isClosed) throw new McpError(ErrorCode.ConnectionClosed, 'Connection closed');
      // Cancelled before it was sent: the caller's doing, not the connection's.
      const signal = options.signal;
      if (signal?.aborted === true) throw abandonedError(signal.reason, reasonText(signal.reason));
      return await this.deadlined(method, params, options);
    } catch (error) {
      throw fromSdkError(error, {
        server: this.server,
        closed: this.isClosed,
        established: this.established,
      });
    }
  }

  async notify(method: string, params: JsonObject | undefined): Promise<void> {
    if (this.isClosed) return;
    await this.send(
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
    );
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    try {
      await this.options.transport.close();
    } finally {
      this.ended();
    }
  }

  private async handshake(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new McpError(ErrorCode.RequestTimeout, 'Request timed out')),
        this.options.connectTimeoutMs,
      );
    });
    const channel = {
      transport: this.options.transport,
      exchange: (method: string, params: JsonObject) => this.exchange(method, params).answer,
      notify: (method: string) => this.notify(method, undefined),
    };
    try {
      await Promise.race([
        (async () => {
          await this.options.transport.start();
          this.capabilities = await initializeUpstream(channel, this.options);
        })(),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** One request under its deadline: idle (reset by progress), the overall cap, the signal. */
  private async deadlined(
    method: string,
    params: JsonObject | undefined,
    options: UpstreamRequestOptions,
  ): Promise<JsonObject> {
    const token = progressTokenOf(params);
    let id = -1;
    const deadline = new RequestDeadline(
      options.timeoutMs ?? this.options.defaultTimeoutMs,
      this.options.maxTotalTimeoutMs,
      (reason) => this.abandon(id, this.timeoutError(method, reason)),
    );
    const onAbort = () => this.abandon(id, options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (token !== undefined) {
      this.progressRoutes.set(token, (progress) => {
        deadline.touch();
        options.onProgress?.(progress);
      });
    }
    // Everything is in place before sending: a transport may deliver the answer at once.
    const opened = this.exchange(method, params, () => {
      deadline.clear();
      options.signal?.removeEventListener('abort', onAbort);
      if (token !== undefined) this.progressRoutes.delete(token);
    });
    id = opened.id;
    const { answer } = opened;
    return answer;
  }

  /** Registers a request and sends it; a failed send fails the request. */
  private exchange(
    method: string,
    params: JsonObject | undefined,
    settled?: () => void,
  ): { id: number; answer: Promise<JsonObject> } {
    const opened = this.pending.open(settled);
    const { id } = opened;
    const message = params === undefined ? { method } : { method, params };
    this.send({ jsonrpc: '2.0', id, ...message }).catch((error: unknown) =>
      this.pending.fail(id, error),
    );
    return opened;
  }

  /**
   * Coffer gives up on a request (the client cancelled, the session closed, the deadline
   * passed): it fails now, the upstream is told to stop, and its late answer is dropped.
   */
  private abandon(id: number, reason: unknown): void {
    const text = reasonText(reason);
    if (!this.pending.fail(id, abandonedError(reason, text))) return;
    void this.notify('notifications/cancelled', { requestId: id, reason: text }).catch(
      () => undefined,
    );
  }

  private receive(message: JsonRpcMessage): void {
    if (isRequest(message)) this.peerRequests.handle(message);
    else if (isNotification(message)) this.onNotification(message);
    else this.pending.answer(message);
  }

  private onNotification({ method, params }: JsonRpcNotification): void {
    if (method === 'notifications/progress') {
      // Synchronously, by the client's own token: the last progress before the result
      // is delivered before the result settles (DESIGN.md §1).
      const token = params?.['progressToken'];
      const route = typeof token === 'string' || typeof token === 'number' ? token : undefined;
      if (route !== undefined && params !== undefined) this.progressRoutes.get(route)?.(params);
    } else if (method === 'notifications/cancelled') {
      this.peerRequests.cancel(params?.['requestId'], params?.['reason']);
    } else {
      this.options.peer.notify(method, params);
    }
  }

  /** async, so a transport that throws instead of rejecting fails only this message. */
  private async send(message: JsonRpcMessage): Promise<void> {
    await this.options.transport.send(message as JSONRPCMessage);
  }

  /** The transport ended (closed by us, the process exited, the stream was lost). */
  private ended(): void {
    this.isClosed = true;
    const closed = new McpError(ErrorCode.ConnectionClosed, 'Connection closed');
    this.pending.failAll(closed);
    this.peerRequests.abortAll(closed);
    this.progressRoutes.clear();
    this.markClosed();
  }

  private timeoutError(method: string, reason: 'idle' | 'cap'): CofferError {
    const what = reason === 'idle' ? 'went silent' : 'took longer than the overall limit';
    return new CofferError('UPSTREAM_TIMEOUT', `Upstream "${this.server}" ${what} on ${method}`, {
      data: { server: this.server, method },
    });
  }
}

/**
 * What the abandoned request rejects with. A cancel is no fault of the connection: it is
 * a JSON-RPC error (as the SDK's client gave), so the connection is kept for the session's
 * next request; the client that cancelled is not sent it.
 */
function reasonText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}

function abandonedError(reason: unknown, text: string): Error {
  if (reason instanceof CofferError || reason instanceof UpstreamRpcError) return reason;
  return new UpstreamRpcError(ErrorCode.RequestTimeout, text);
}

function progressTokenOf(params: JsonObject | undefined): ProgressToken | undefined {
  const meta = params?.['_meta'];
  if (!isObject(meta)) return undefined;
  const token = meta['progressToken'];
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}
