import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  type JsonObject,
  type UpstreamConnection,
  type UpstreamPeer,
  type UpstreamRequestOptions,
} from '../domain/ports.js';
import { abandonedError, reasonText } from './abandoned-request.js';
import { openUpstream } from './connection-handshake.js';
import { EraProbeClosed, type NegotiationOrder } from './era-negotiation.js';
import type { ErrorRedactor } from './error-redaction.js';
import { handshakeError, startReport } from './handshake-error.js';
import {
  isNotification,
  isRequest,
  type JsonRpcMessage,
  type JsonRpcNotification,
} from './jsonrpc-envelope.js';
import { PeerRequests } from './peer-requests.js';
import { StdioProcessTransport } from './stdio-process-transport.js';
import { PendingRequests } from '../domain/pending-requests.js';
import {
  progressTokenOf,
  RequestDeadline,
  timeoutError,
  withProgressToken,
} from './request-deadline.js';
import { listenForListChanges, untagged } from './list-subscription.js';
import { ListenStreams, type ListenStream, type NotificationSink } from './listen-streams.js';
import { paramsForEra, withEnvelope, type ProtocolEra } from './protocol-era.js';
import { fromSdkError, isBrokenStream } from './rpc-error.js';

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
  /** Hides the upstream's own secrets in the errors it raises (error-redaction.ts). */
  readonly redactError?: ErrorRedactor;
  /** Which era to try first (src/upstream/era-negotiation.ts); default legacy-first. */
  readonly negotiation?: NegotiationOrder;
  /** Aborting it during the handshake closes the transport (and kills a stdio child). */
  readonly signal?: AbortSignal;
}

/**
 * One MCP client session with one upstream, on an SDK Transport, relaying raw JSON-RPC:
 * Coffer's own request ids and progress tokens, results passed on as they came (no schema
 * parse), progress routed synchronously by its token, cancellation forwarded with the
 * upstream's id, and the upstream's requests and notifications handed to the session's
 * peer. The SDK keeps what it is good at here: the HTTP transports and their OAuth.
 */
export class JsonRpcUpstreamConnection implements UpstreamConnection {
  readonly server: string;
  readonly closed: Promise<void>;
  private capabilities: JsonObject = {};
  private negotiatedEra: ProtocolEra = 'legacy';
  private version = '';
  private said: string | undefined;
  private readonly pending = new PendingRequests();
  private readonly peerRequests: PeerRequests;
  private readonly progressRoutes = new Map<number, (params: JsonObject) => void>();
  private lastProgressToken = 0;
  /** A modern upstream's subscriptions/listen requests (list changes, resource updates). */
  private readonly listens = new ListenStreams({
    open: (method, params) => this.exchange(method, params),
    abandon: (id, reason) => this.abandon(id, reason),
  });
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
      if (error instanceof EraProbeClosed) {
        await connection.close();
        throw error;
      }
      // Read before closing: closing ends the process, which would hide how it ended.
      const report = startReport(options.transport);
      await connection.close();
      const failure = handshakeError(options.server, error, report, options.connectTimeoutMs);
      throw options.redactError?.(failure) ?? failure;
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
    connection.established = true;
    return connection;
  }

  get serverCapabilities(): JsonObject {
    return this.capabilities;
  }

  get era(): ProtocolEra {
    return this.negotiatedEra;
  }

  get protocolVersion(): string {
    return this.version;
  }

  get instructions(): string | undefined {
    return this.said;
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
      const failure = fromSdkError(error, {
        server: this.server,
        closed: this.isClosed,
        established: this.established,
        local: this.options.transport instanceof StdioProcessTransport,
      });
      throw this.options.redactError?.(failure) ?? failure;
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
    const { options } = this;
    const channel = {
      transport: options.transport,
      exchange: (method: string, params: JsonObject) => this.exchange(method, params).answer,
      notify: (method: string) => this.notify(method, undefined),
    };
    const opened = await openUpstream(options.transport, channel, {
      ...options,
      negotiation: options.negotiation ?? 'legacy-first',
    });
    this.capabilities = opened.serverCapabilities;
    this.negotiatedEra = opened.era;
    this.version = opened.protocolVersion;
    this.said = opened.instructions;
    if (opened.era === 'modern')
      listenForListChanges(opened.serverCapabilities, (params) =>
        this.listens.listen(withEnvelope(params, options)),
      );
  }

  /**
   * Opens a `subscriptions/listen` on this (modern) connection with `params` (the filter,
   * the caller's envelope stamped); what the server sends for it goes to `deliver`.
   */
  listen(params: JsonObject, deliver: NotificationSink): ListenStream {
    return this.listens.listen(params, deliver);
  }

  /** One request under its deadline: idle (reset by progress), the overall cap, the signal. */
  private async deadlined(
    method: string,
    params: JsonObject | undefined,
    options: UpstreamRequestOptions,
  ): Promise<JsonObject> {
    let id = -1;
    const deadline = new RequestDeadline(
      options.timeoutMs ?? this.options.defaultTimeoutMs,
      this.options.maxTotalTimeoutMs,
      (reason) => this.abandon(id, timeoutError(this.server, method, reason)),
    );
    const stopListening = options.signal?.onAbort((reason) => this.abandon(id, reason));
    // The upstream sees a token of this connection's own, never the client's: the requests
    // of many clients share a connection (2026-07-28, servers marked shared), and each
    // client numbers its tokens from 0. The client's router puts its own token back.
    const token = progressTokenOf(params) === undefined ? undefined : ++this.lastProgressToken;
    if (token !== undefined) {
      this.progressRoutes.set(token, (progress) => {
        deadline.touch();
        options.onProgress?.(progress);
      });
    }
    // Everything is in place before sending: a transport may deliver the answer at once.
    // A shared modern connection's lease stamped its session's envelope already.
    const own = token === undefined ? params : withProgressToken(params, token);
    const sent = paramsForEra(this.negotiatedEra, own, this.options);
    const opened = this.exchange(method, sent, () => {
      deadline.clear();
      stopListening?.();
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
    if (this.listens.take(method, params)) return;
    if (method === 'notifications/progress') {
      // Synchronously, by the connection's own token: the last progress before the result
      // is delivered before the result settles (DESIGN.md §1).
      const token = params?.['progressToken'];
      if (typeof token === 'number' && params !== undefined)
        this.progressRoutes.get(token)?.(params);
    } else if (method === 'notifications/cancelled') {
      this.peerRequests.cancel(params?.['requestId'], params?.['reason']);
    } else {
      this.options.peer.notify(method, untagged(params));
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
}
