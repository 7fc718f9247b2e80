import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http';

/**
 * The shim's HTTP client for the daemon's /mcp, on node:http rather than fetch: it loads
 * faster (no undici on the start-up path), and it tells "never reached the daemon"
 * (connection refused) from "may have reached it" (reset mid-request), which decides
 * whether a request may be sent again.
 */

/** Where one daemon serves MCP, as discovery found it. */
export interface DaemonEndpoint {
  readonly pid: number;
  readonly port: number;
  readonly token: string;
}

export type HttpOutcome =
  | { readonly kind: 'response'; readonly response: IncomingMessage }
  /** Nothing was delivered (nobody listening): sending again cannot duplicate anything. */
  | { readonly kind: 'unreachable'; readonly error: Error }
  /** The request may have been delivered; `reusedSocket` tells a stale keep-alive socket apart. */
  | { readonly kind: 'failed'; readonly error: Error; readonly reusedSocket: boolean };

export interface HttpCall {
  readonly method: 'POST' | 'GET' | 'DELETE';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Until the response headers arrive. */
  readonly timeoutMs: number;
}

const NOT_DELIVERED = new Set(['ECONNREFUSED', 'EADDRNOTAVAIL', 'ENETUNREACH', 'EHOSTUNREACH']);

/** One keep-alive agent per shim: a call costs no TCP handshake once warm. */
export function createDaemonAgent(): Agent {
  return new Agent({ keepAlive: true, keepAliveMsecs: 1_000 });
}

/**
 * Sends one HTTP request and resolves once the response headers are in (the body is
 * the caller's to read). `track` receives the request so a caller can abort it later.
 */
export function sendHttp(
  agent: Agent,
  endpoint: DaemonEndpoint,
  call: HttpCall,
  track?: (request: ClientRequest) => void,
): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: HttpOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = request({
      host: '127.0.0.1',
      port: endpoint.port,
      method: call.method,
      path: call.path,
      agent,
      headers: {
        authorization: `Bearer ${endpoint.token}`,
        ...call.headers,
        ...(call.body === undefined ? {} : { 'content-length': Buffer.byteLength(call.body) }),
      },
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer from the Coffer daemon within ${call.timeoutMs} ms`));
    }, call.timeoutMs);
    req.once('response', (response) => settle({ kind: 'response', response }));
    req.on('error', (error: NodeJS.ErrnoException) => {
      const delivered = !NOT_DELIVERED.has(error.code ?? '');
      settle(
        delivered
          ? { kind: 'failed', error, reusedSocket: req.reusedSocket }
          : { kind: 'unreachable', error },
      );
    });
    track?.(req);
    req.end(call.body);
  });
}

/** Reads a (small) response body to the end, e.g. an HTTP error's JSON. */
export function readBody(response: IncomingMessage, limit = 1024 * 1024): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    const done = (): void => resolve(Buffer.concat(chunks).toString('utf8'));
    response.once('end', done);
    response.once('error', done);
    response.once('aborted', done);
  });
}

export function contentType(response: IncomingMessage): string {
  return (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
