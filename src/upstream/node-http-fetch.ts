import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { finished, pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { withOwnSignals } from './request-signal.js';

/**
 * fetch for the JSON-RPC messages Coffer POSTs to a remote upstream, on node:http and a
 * keep-alive agent instead of Node's fetch (undici). Per POST undici builds a Request,
 * clones it (teeing its body stream) and parses the answer in WebAssembly: about 450 µs of
 * CPU against 180 µs here for the same call (docs/PERFORMANCE.md), on every message of
 * every remote server. The answer is still a web Response, so the SDK's transports read
 * it as before, SSE answers streaming as they arrive.
 *
 * What this does not do as fetch would goes to `fallback` (Node's fetch): any method but
 * POST, a body that is not a string (a form, a stream), a URL that is not http(s), and a
 * redirect to follow (the POST is sent again there). The SDK's transports ask for
 * `redirect: 'manual'` and follow a redirect within the origin themselves: that answer
 * is returned as it came.
 *
 * The signal a request is given holds one listener, let go of when its answer ends. The
 * SDK's transports give every request their one long-lived signal, which Node's fetch
 * would pile listeners on: the default fallback gives each request a signal of its own
 * (src/upstream/request-signal.ts).
 */
export interface NodeHttpFetchOptions {
  /** Default: Node's fetch, each request under a signal of its own. */
  readonly fallback?: FetchLike;
  /**
   * An idle kept-alive socket is closed after this long: under the 5 s most servers keep
   * one, so a POST rarely goes out on a socket the server is closing.
   */
  readonly idleMs?: number;
}

const DEFAULT_IDLE_MS = 4_000;
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Statuses whose Response may not have a body. */
const NO_BODY: ReadonlySet<number> = new Set([101, 204, 205, 304]);
const REDIRECTED = Symbol('redirected');

type Agents = Readonly<Record<'http:' | 'https:', HttpAgent>>;

export function nodeHttpFetch(options: NodeHttpFetchOptions = {}): FetchLike {
  const fallback = options.fallback ?? withOwnSignals(fetch);
  const timeout = options.idleMs ?? DEFAULT_IDLE_MS;
  const agents: Agents = {
    'http:': new HttpAgent({ keepAlive: true, timeout }),
    'https:': new HttpsAgent({ keepAlive: true, timeout }),
  };
  return async (url, init) => {
    const target = typeof url === 'string' ? new URL(url) : url;
    const body = init?.body;
    const handled =
      init?.method === 'POST' &&
      typeof body === 'string' &&
      (target.protocol === 'http:' || target.protocol === 'https:');
    if (!handled) return fallback(url, init);
    const answer = await post(target, init, body, agents, true);
    return answer === REDIRECTED ? fallback(url, init) : answer;
  };
}

function post(
  target: URL,
  init: RequestInit,
  body: string,
  agents: Agents,
  mayRetry: boolean,
): Promise<Response | typeof REDIRECTED> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted === true) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const https = target.protocol === 'https:';
    const request = (https ? httpsRequest : httpRequest)(target, {
      method: 'POST',
      agent: agents[https ? 'https:' : 'http:'],
      headers: requestHeaders(init.headers, body),
    });
    let answer: IncomingMessage | undefined;
    const onAbort = () => {
      const reason = abortReason(signal);
      request.destroy(reason);
      answer?.destroy(reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (answer !== undefined) return;
      done();
      // A kept-alive socket the server closed as this POST went out: it never read it.
      if (mayRetry && request.reusedSocket && isStaleSocket(error) && signal?.aborted !== true)
        resolve(post(target, init, body, agents, false));
      else reject(signal?.aborted === true ? abortReason(signal) : fetchFailed(error));
    });
    request.on('response', (incoming: IncomingMessage) => {
      answer = incoming;
      incoming.once('close', done);
      const redirect = init.redirect ?? 'follow';
      if (redirect !== 'manual' && isRedirect(incoming)) {
        incoming.resume();
        if (redirect === 'follow') resolve(REDIRECTED);
        else reject(fetchFailed(new Error('the server answered with a redirect')));
        return;
      }
      try {
        resolve(toResponse(incoming));
      } catch (error) {
        incoming.destroy();
        reject(fetchFailed(error));
      }
    });
    request.end(body);
  });
}

/** The headers as fetch would send them for a string body. */
function requestHeaders(given: RequestInit['headers'], body: string): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(given).forEach((value, name) => (headers[name] = value));
  headers['content-length'] = String(Buffer.byteLength(body));
  headers['content-type'] ??= 'text/plain;charset=UTF-8';
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  return headers;
}

function toResponse(incoming: IncomingMessage): Response {
  const status = incoming.statusCode ?? 0;
  if (status < 200 || status > 599) throw new Error(`the server answered HTTP ${status}`);
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? '', raw[i + 1] ?? '');
  const init = { status, statusText: incoming.statusMessage ?? '', headers };
  if (NO_BODY.has(status)) {
    incoming.resume();
    return new Response(null, init);
  }
  const body = decoded(incoming, headers.get('content-encoding'));
  return new Response(webBody(body, incoming), init);
}

/**
 * The body as a web stream, read ahead by one chunk. An answer read to its end gives its
 * socket back to the agent before anyone could cancel it (the SDK cancels every 202 it
 * gets); cancelling one still arriving cuts it off with its socket.
 */
function webBody(body: Readable, incoming: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      body.on('data', (chunk: Buffer) => {
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) body.pause();
      });
      finished(body, (error) => {
        if (error === undefined || error === null) controller.close();
        else controller.error(error);
      });
    },
    pull() {
      body.resume();
    },
    cancel(reason) {
      incoming.destroy(reason instanceof Error ? reason : undefined);
    },
  });
}

/** The body with its content coding undone, as fetch does; an unknown coding is left as is. */
function decoded(incoming: IncomingMessage, coding: string | null): Readable {
  const name = coding?.trim().toLowerCase();
  const decoder =
    name === 'gzip' || name === 'x-gzip'
      ? createGunzip()
      : name === 'deflate'
        ? createInflate()
        : name === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return incoming;
  return pipeline(incoming, decoder, () => undefined);
}

function isRedirect(incoming: IncomingMessage): boolean {
  return REDIRECTS.has(incoming.statusCode ?? 0) && incoming.headers.location !== undefined;
}

function isStaleSocket(error: NodeJS.ErrnoException): boolean {
  return error.code === 'ECONNRESET' || error.code === 'EPIPE';
}

/** As fetch reports a network failure: the reason in `cause` (src/upstream/network-problem.ts). */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error
    ? reason
    : new DOMException('This operation was aborted', 'AbortError');
}
