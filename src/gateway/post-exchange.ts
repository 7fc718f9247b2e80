import type { ServerResponse } from 'node:http';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { wireLength, type WireText } from './serialized-results.js';

/** SSE comment sent on an idle stream so proxies and clients keep it open. */
export const SSE_KEEP_ALIVE_MS = 15_000;

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

/** One SSE event carrying a JSON-RPC message, given as its JSON text. */
export function sseEvent(json: string): string {
  return `event: message\ndata: ${json}\n\n`;
}

/** Writes an SSE keep-alive comment every SSE_KEEP_ALIVE_MS until the response closes. */
export function keepAlive(res: ServerResponse): void {
  const timer = setInterval(() => res.write(': keepalive\n\n'), SSE_KEEP_ALIVE_MS);
  timer.unref();
  res.once('close', () => clearInterval(timer));
}

export interface PostExchangeOptions {
  readonly res: ServerResponse;
  /** The requests of this POST, in order: their answers make up the response. */
  readonly ids: readonly RequestId[];
  /** The POST carried a JSON-RPC batch: a JSON answer is an array too. */
  readonly batch: boolean;
  /** mcp-session-id, when the session has one. */
  readonly sessionId: string | undefined;
  /**
   * Without an answer by then, the response turns into an SSE stream with keep-alives, so
   * a long call never meets a client's wait for response headers (the shim's is 60 s).
   */
  readonly streamAfterMs: number;
  /** JSON text of a message (SerializedResults reuses kept results). */
  readonly serialize: (message: JSONRPCMessage) => string;
  /** The same as the body of a JSON answer: bytes where they are kept; default serialize. */
  readonly encode?: (message: JSONRPCMessage) => WireText;
  /** The HTTP status of a JSON (not streamed, not batched) answer; default 200. */
  readonly statusOf?: (answer: JSONRPCMessage) => number;
}

/**
 * The response to one POST that carried requests. It starts as plain `application/json`
 * (one write, no stream) and becomes `text/event-stream` only when a message other than
 * an answer (progress, a sampling request, a log line) must reach the client before the
 * answers are all in; the spec lets the server choose per response.
 */
export class PostExchange {
  private readonly waiting: Set<RequestId>;
  private readonly answers = new Map<RequestId, JSONRPCMessage>();
  private streaming = false;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: PostExchangeOptions) {
    this.waiting = new Set(options.ids);
    this.timer = setTimeout(() => this.stream(), options.streamAfterMs);
    this.timer.unref();
    options.res.once('close', () => clearTimeout(this.timer));
  }

  /** A message for this POST; true once every request of it is answered (the response ended). */
  deliver(message: JSONRPCMessage, answers: RequestId | undefined): boolean {
    const { res } = this.options;
    if (answers === undefined) {
      this.stream();
      res.write(sseEvent(this.options.serialize(message)));
      return false;
    }
    if (!this.waiting.delete(answers)) return this.waiting.size === 0;
    if (this.streaming) res.write(sseEvent(this.options.serialize(message)));
    else this.answers.set(answers, message);
    if (this.waiting.size > 0) return false;
    this.finish();
    return true;
  }

  /**
   * The client cancelled request `id`: it gets no answer (the spec: the receiver should
   * not respond), but the response must not wait for one. True once the response ended.
   */
  forget(id: RequestId): boolean {
    if (!this.waiting.delete(id)) return this.waiting.size === 0;
    if (this.waiting.size > 0) return false;
    this.finish();
    return true;
  }

  /** Ends the response without the missing answers (the session closed). */
  abandon(): void {
    this.stream();
    this.options.res.end();
  }

  private finish(): void {
    clearTimeout(this.timer);
    const { res, batch, sessionId, serialize } = this.options;
    if (this.streaming) return void res.end();
    const answers = this.options.ids.flatMap((id) => {
      const answer = this.answers.get(id);
      return answer === undefined ? [] : [answer];
    });
    // Every request of it was cancelled: a stream that ends without a message, since a
    // 200 JSON response must carry one (docs/SECURITY.md: the one 200 without an answer).
    const single = answers[0];
    if (single === undefined) {
      this.stream();
      return void res.end();
    }
    const body = batch
      ? `[${answers.map((answer) => serialize(answer)).join(',')}]`
      : (this.options.encode ?? serialize)(single);
    const status = batch ? 200 : (this.options.statusOf?.(single) ?? 200);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': wireLength(body),
      ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
    });
    // Writes after the first are corked by node:http until the end: one writev.
    if (typeof body === 'string') return void res.end(body);
    for (const chunk of body.slice(0, -1)) res.write(chunk);
    res.end(body.at(-1));
  }

  private stream(): void {
    if (this.streaming) return;
    this.streaming = true;
    clearTimeout(this.timer);
    const { res, sessionId } = this.options;
    if (res.writableEnded) return;
    res.writeHead(200, {
      ...SSE_HEADERS,
      ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
    });
    // Answers that came in while the response was still JSON go out first.
    for (const answer of this.answers.values()) res.write(sseEvent(this.options.serialize(answer)));
    this.answers.clear();
    res.flushHeaders();
    keepAlive(res);
  }
}
