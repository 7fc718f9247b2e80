import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { isRequest, isResponse, messageProblem } from './json-rpc-shape.js';
import { keepAlive, PostExchange, SSE_HEADERS, sseEvent } from './post-exchange.js';
import { SerializedResults, type WireText } from './serialized-results.js';

/** As the SDK's transport: more messages in one POST is refused. */
const MAX_BATCH = 100;

export interface JsonFirstTransportOptions {
  readonly sessionIdGenerator: () => string;
  readonly onsessioninitialized?: (sessionId: string) => void;
  /** How long a POST may wait for its answer before its response becomes SSE. */
  readonly streamAfterMs?: number;
  /** Serialisations of results the session sends repeatedly (a warm tools/list). */
  readonly results?: SerializedResults;
}

/**
 * The downstream MCP Streamable HTTP transport of one session, on node:http directly.
 * The SDK's StreamableHTTPServerTransport turns every POST into a web Request, an SSE
 * ReadableStream and a hono response (most of the daemon's CPU per call, see
 * docs/PERFORMANCE.md). This one answers with plain JSON unless a message other than the
 * answer must go first (PostExchange), and keeps the rest of the SDK transport's contract:
 * session ids, the standalone GET stream, DELETE, MCP-Protocol-Version checks, 202 for
 * notifications and responses, the same status and error codes. It stores no events,
 * so a client cannot resume a stream (Coffer never configured an event store).
 */
export class JsonFirstTransport implements Transport {
  sessionId: string | undefined;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly exchanges = new Map<RequestId, PostExchange>();
  private standalone: ServerResponse | undefined;
  private closed = false;
  private readonly serialize: (message: JSONRPCMessage) => string;
  private readonly encode: (message: JSONRPCMessage) => WireText;

  constructor(private readonly options: JsonFirstTransportOptions) {
    const results = options.results ?? new SerializedResults();
    this.serialize = (message) => results.serialize(message);
    this.encode = (message) => results.encode(message);
  }

  async start(): Promise<void> {}

  /** One HTTP request of this session; `body` is the parsed JSON of a POST. */
  async handleRequest(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    if (this.closed) return this.refuse(res, 404, -32001, 'Session not found');
    if (req.method === 'POST') return this.post(req, res, body);
    if (req.method === 'GET') return this.get(req, res);
    if (req.method === 'DELETE') return this.delete(req, res);
    res.setHeader('Allow', 'GET, POST, DELETE');
    return this.refuse(res, 405, -32000, 'Method not allowed.');
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      this.route(message, options?.relatedRequestId);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Request `id` was cancelled by the client: its POST stops waiting for an answer. */
  forget(id: RequestId): void {
    const exchange = this.exchanges.get(id);
    if (exchange === undefined) return;
    this.exchanges.delete(id);
    exchange.forget(id);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    for (const exchange of new Set(this.exchanges.values())) exchange.abandon();
    this.exchanges.clear();
    this.standalone?.end();
    this.onclose?.();
    return Promise.resolve();
  }

  /** A message from the session's router: to the POST it belongs to, or to the GET stream. */
  private route(message: JSONRPCMessage, relatedRequestId: RequestId | undefined): void {
    const answers = isResponse(message) ? message.id : undefined;
    const related = answers ?? relatedRequestId;
    if (related === undefined) {
      this.standalone?.write(sseEvent(this.serialize(message)));
      return;
    }
    const exchange = this.exchanges.get(related);
    if (exchange === undefined) {
      // The POST it belonged to is gone (answered, or the client hung up). A request
      // fails at once rather than wait for an answer that cannot come.
      if (isRequest(message))
        throw new Error(`No connection established for request ID: ${String(related)}`);
      return;
    }
    if (answers !== undefined) this.exchanges.delete(answers);
    exchange.deliver(message, answers);
  }

  private post(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
      return this.refuse(
        res,
        406,
        -32000,
        'Not Acceptable: Client must accept both application/json and text/event-stream',
      );
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json')
      return this.refuse(
        res,
        415,
        -32000,
        'Unsupported Media Type: Content-Type must be application/json',
      );
    const batch = Array.isArray(body);
    const raw: unknown[] = batch ? body : [body];
    if (raw.length > MAX_BATCH)
      return this.refuse(
        res,
        400,
        -32600,
        `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`,
      );
    const problem = raw.length === 0 ? 'an empty batch' : firstProblem(raw);
    if (problem !== undefined) return this.refuse(res, 400, -32600, `Invalid Request: ${problem}`);
    const messages = raw as JSONRPCMessage[];
    const initializes = messages.some((m) => 'method' in m && m.method === 'initialize');
    const refusal = initializes ? this.initialize(messages.length) : this.check(req);
    if (refusal !== undefined) return this.refuse(res, ...refusal);
    // As the SDK's HTTP transport does: the request's headers (its traceparent) go along.
    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers } };
    const ids = messages.filter(isRequest).map((m) => m.id);
    const taken = ids.find((id) => this.exchanges.has(id));
    if (taken !== undefined) return this.refuseTaken(res, taken);
    if (ids.length === 0) {
      res.writeHead(202).end();
      for (const message of messages) this.onmessage?.(message, extra);
      return;
    }
    const exchange = new PostExchange({
      res,
      ids,
      batch,
      sessionId: this.sessionId,
      streamAfterMs: this.options.streamAfterMs ?? 10_000,
      serialize: this.serialize,
      encode: this.encode,
    });
    for (const id of ids) this.exchanges.set(id, exchange);
    res.once('close', () => {
      for (const id of ids) if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
    });
    for (const message of messages) this.onmessage?.(message, extra);
  }

  private get(req: IncomingMessage, res: ServerResponse): void {
    if (!(req.headers.accept ?? '').includes('text/event-stream'))
      return this.refuse(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    const problem = this.check(req);
    if (problem !== undefined) return this.refuse(res, ...problem);
    if (this.standalone !== undefined)
      return this.refuse(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
    res.writeHead(200, { ...SSE_HEADERS, 'mcp-session-id': this.sessionId ?? '' });
    res.flushHeaders();
    keepAlive(res);
    this.standalone = res;
    res.once('close', () => {
      if (this.standalone === res) this.standalone = undefined;
    });
  }

  private async delete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const problem = this.check(req);
    if (problem !== undefined) return this.refuse(res, ...problem);
    res.writeHead(200).end();
    await this.close();
  }

  /** An initialize POST: assigns the session id, once. */
  private initialize(count: number): Problem | undefined {
    if (this.sessionId !== undefined)
      return [400, -32600, 'Invalid Request: Server already initialized'];
    if (count > 1)
      return [400, -32600, 'Invalid Request: Only one initialization request is allowed'];
    this.sessionId = this.options.sessionIdGenerator();
    this.options.onsessioninitialized?.(this.sessionId);
    return undefined;
  }

  /** Every request after initialize: the session and protocol version headers. */
  private check(req: IncomingMessage): Problem | undefined {
    if (this.sessionId === undefined) return [400, -32000, 'Bad Request: Server not initialized'];
    const id = req.headers['mcp-session-id'];
    if (id === undefined) return [400, -32000, 'Bad Request: Mcp-Session-Id header is required'];
    if (id !== this.sessionId) return [404, -32001, 'Session not found'];
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version))
      return [
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      ];
    return undefined;
  }

  /**
   * Answers go by id, so a second request under an id still in flight would take the
   * first one's answer and leave the first POST open forever: it is refused at once,
   * under its own id (the first request keeps its answer).
   */
  private refuseTaken(res: ServerResponse, id: RequestId): void {
    const message = `Invalid Request: the id ${JSON.stringify(id)} is in use by a request in flight in this session; send this request with a new id`;
    this.onerror?.(new Error(message));
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message }, id }));
  }

  private refuse(res: ServerResponse, ...[status, code, message]: Problem): void {
    this.onerror?.(new Error(message));
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
  }
}

type Problem = [status: number, code: number, message: string];

function firstProblem(messages: readonly unknown[]): string | undefined {
  for (const message of messages) {
    const problem = messageProblem(message);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
