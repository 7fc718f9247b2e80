import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import {
  contentType,
  readBody,
  sendHttp,
  type DaemonEndpoint,
  type HttpCall,
  type HttpOutcome,
} from './daemon-http.js';
import {
  errorFromBody,
  isJsonObject,
  isJsonRpcId,
  type JsonRpcId,
  type JsonRpcMessage,
  type RpcErrorBody,
} from './json-rpc.js';
import type { ShimLog } from './shim-log.js';
import { SseParser } from './sse-parser.js';
import { GetStream } from './get-stream.js';

/**
 * One MCP Streamable HTTP session with one daemon: the session id and protocol version
 * headers, the POST of each message, the streams its answers come back on, the GET
 * stream, and DELETE. A daemon restart means a new DaemonSession (a new `generation`).
 */

export interface SessionEvents {
  /** A message from the daemon; `raw` is its exact text when that fits one stdio line. */
  onMessage(message: JsonRpcMessage, raw: string, session: DaemonSession): void;
  /** The stream of a POST ended; `ids` are the requests it carried, answered or not. */
  onStreamEnd(ids: readonly JsonRpcId[], problem: string, session: DaemonSession): void;
}

export type PostOutcome =
  /** Accepted (202), or a stream whose messages are being relayed. */
  | { readonly kind: 'sent' }
  /** Session or daemon gone and nothing delivered: safe to send again on a new session. */
  | { readonly kind: 'stale'; readonly reason: string }
  /** The daemon refused the message with an HTTP error. */
  | { readonly kind: 'rejected'; readonly error: RpcErrorBody }
  /** The daemon may or may not have received it: never sent again. */
  | { readonly kind: 'failed'; readonly reason: string };

export interface SessionOptions {
  readonly agent: Agent;
  /** `/mcp`, or `/mcp?mode=lean`. */
  readonly path: string;
  readonly events: SessionEvents;
  readonly log: ShimLog;
}

const POST_HEADERS_TIMEOUT_MS = 60_000;
const DELETE_TIMEOUT_MS = 2_000;
const LOST = 'the connection to the Coffer daemon was lost';
const ENDED = 'the Coffer daemon ended the response stream without answering';

export class DaemonSession {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  private readonly inFlight = new Set<ClientRequest>();
  private readonly getStream: GetStream;
  /** The shim's own requests (the re-initialize): their answers never reach the client. */
  private readonly own = new Map<JsonRpcId, (answer: JsonRpcMessage | string) => void>();
  private closed = false;

  constructor(
    readonly endpoint: DaemonEndpoint,
    readonly generation: number,
    private readonly options: SessionOptions,
  ) {
    this.getStream = new GetStream({
      open: (track) => this.call({ method: 'GET', timeoutMs: 10_000 }, track),
      consume: (response) => this.consumeSse(response, []),
      log: options.log,
    });
  }

  /** Sends one message body; resolves once the daemon's response headers are in. */
  async post(body: string, ids: readonly JsonRpcId[]): Promise<PostOutcome> {
    const call = { method: 'POST', body, timeoutMs: POST_HEADERS_TIMEOUT_MS } as const;
    const first = await this.call(call);
    // A keep-alive socket the daemon closed while idle fails at once: one fresh try. If
    // that finds nobody listening, the first try may still have been delivered.
    const retried = first.kind === 'failed' && first.reusedSocket;
    const outcome = retried ? await this.call(call) : first;
    if (outcome.kind === 'unreachable' && !retried) {
      return { kind: 'stale', reason: `daemon unreachable (${errorCode(outcome.error)})` };
    }
    if (outcome.kind !== 'response') return { kind: 'failed', reason: LOST };
    return this.accept(outcome.response, ids);
  }

  /**
   * Sends a request of the shim's own and resolves with the daemon's response message,
   * or rejects with why none came. The answer is swallowed: the client never sees it.
   */
  async request(method: string, params: unknown): Promise<JsonRpcMessage> {
    const id = `coffer-shim-${process.pid}-${this.generation}-${method}`;
    const answer = new Promise<JsonRpcMessage | string>((resolve) => this.own.set(id, resolve));
    const outcome = await this.post(JSON.stringify({ jsonrpc: '2.0', id, method, params }), [id]);
    if (outcome.kind !== 'sent') {
      this.own.delete(id);
      throw new Error(
        outcome.kind === 'rejected' ? outcome.error.message : `${method}: ${outcome.kind}`,
      );
    }
    const message = await answer;
    if (typeof message === 'string') throw new Error(`${method}: ${message}`);
    return message;
  }

  /** Opens the server→client stream for messages not tied to a request (list_changed, …). */
  openGetStream(): void {
    if (!this.closed) this.getStream.open();
  }

  /** Ends the session on the daemon (DELETE) and drops every stream. */
  async terminate(): Promise<number | undefined> {
    const wasOpen = !this.closed;
    this.abandon();
    if (!wasOpen || this.sessionId === undefined) return undefined;
    const outcome = await this.call({ method: 'DELETE', timeoutMs: DELETE_TIMEOUT_MS }, undefined);
    if (outcome.kind !== 'response') return undefined;
    outcome.response.resume();
    return outcome.response.statusCode;
  }

  /** Forgets the session without telling the daemon: its streams end and their requests fail. */
  abandon(): void {
    this.closed = true;
    this.getStream.close();
    for (const request of this.inFlight) request.destroy();
    this.inFlight.clear();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private call(
    call: Omit<HttpCall, 'path' | 'headers'>,
    track?: (request: ClientRequest) => void,
  ): Promise<HttpOutcome> {
    const headers: Record<string, string> = {
      accept: call.method === 'GET' ? 'text/event-stream' : 'application/json, text/event-stream',
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined) headers['mcp-protocol-version'] = this.protocolVersion;
    return sendHttp(
      this.options.agent,
      this.endpoint,
      { ...call, path: this.options.path, headers },
      (request) => {
        this.inFlight.add(request);
        request.once('close', () => this.inFlight.delete(request));
        track?.(request);
      },
    );
  }

  private async accept(response: IncomingMessage, ids: readonly JsonRpcId[]): Promise<PostOutcome> {
    const status = response.statusCode ?? 0;
    const assigned = response.headers['mcp-session-id'];
    if (this.sessionId === undefined && typeof assigned === 'string') this.sessionId = assigned;
    if (status >= 200 && status < 300) {
      const type = contentType(response);
      if (type === 'text/event-stream') void this.consumeSse(response, ids);
      else if (type === 'application/json') void this.consumeJson(response, ids);
      else {
        response.resume();
        this.streamEnded(ids, ENDED);
      }
      return { kind: 'sent' };
    }
    const text = await readBody(response);
    // 404 for our session id: the daemon restarted or reaped it. 401: a new daemon (new
    // token) took the port. Either way nothing was processed.
    if ((status === 404 && this.sessionId !== undefined) || status === 401) {
      return { kind: 'stale', reason: `daemon answered HTTP ${status}` };
    }
    const error = errorFromBody(text) ?? {
      code: -32603,
      message: `The Coffer daemon answered HTTP ${status}`,
    };
    return { kind: 'rejected', error };
  }

  /** Relays every message of an SSE response; reports the stream's end with its requests. */
  private consumeSse(response: IncomingMessage, ids: readonly JsonRpcId[]): Promise<void> {
    const parser = new SseParser((event) => {
      if (event.event === 'message') this.deliver(event.data);
    });
    response.on('data', (chunk: Buffer) => parser.push(chunk));
    response.on('error', () => undefined);
    return new Promise((resolve) => {
      response.once('close', () => {
        if (response.complete) parser.end();
        this.streamEnded(ids, response.complete ? ENDED : LOST);
        resolve();
      });
    });
  }

  private async consumeJson(response: IncomingMessage, ids: readonly JsonRpcId[]): Promise<void> {
    const text = await readBody(response, Number.POSITIVE_INFINITY);
    this.deliver(text);
    this.streamEnded(ids, response.complete ? ENDED : LOST);
  }

  private streamEnded(ids: readonly JsonRpcId[], problem: string): void {
    const theirs = ids.filter((id) => {
      const own = this.own.get(id);
      if (own === undefined) return true;
      this.own.delete(id);
      own(problem);
      return false;
    });
    if (theirs.length > 0) this.options.events.onStreamEnd(theirs, problem, this);
  }

  private deliver(data: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      this.options.log.warn('daemon sent a message that is not JSON', { bytes: data.length });
      return;
    }
    const messages = Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
    const verbatim = !Array.isArray(parsed) && !/[\r\n]/.test(data);
    for (const message of messages) {
      if (!isJsonObject(message)) continue;
      const own = isJsonRpcId(message['id']) ? this.own.get(message['id']) : undefined;
      if (own !== undefined && typeof message['method'] !== 'string') {
        own(message);
        continue;
      }
      this.options.events.onMessage(message, verbatim ? data : JSON.stringify(message), this);
    }
  }
}

function errorCode(error: Error): string {
  return (error as NodeJS.ErrnoException).code ?? error.message;
}
