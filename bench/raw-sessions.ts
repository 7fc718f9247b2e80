/**
 * MCP sessions with a daemon through a raw client: node:http on /mcp, or the shim's socket
 * channel (docs/ARCHITECTURE.md), one request at a time. An answer is handed back as the
 * bytes the daemon wrote, unparsed, so the client's own CPU stays small beside the
 * daemon's (an SDK client parses every tool with zod).
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createConnection } from 'node:net';
import type { Readable } from 'node:stream';
import { mcpNameField } from '../src/domain/mcp-envelope.js';
import { spawnOwned, stopChild } from './processes.js';

export interface RawSession {
  /** Sends a request and resolves with its answer's bytes (one JSON-RPC message). */
  request(method: string, params?: Record<string, unknown>): Promise<Buffer>;
  close(): void;
}

const PROTOCOL_VERSION = '2025-06-18';
const INITIALIZE = {
  protocolVersion: PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: 'coffer-bench-raw', version: '0.0.0' },
};

const message = (id: number | undefined, method: string, params?: object): string =>
  JSON.stringify({ jsonrpc: '2.0', ...(id === undefined ? {} : { id }), method, params });

/** What a POST got back: its status, its whole body and its headers. */
export interface Posted {
  readonly status: number;
  readonly body: Buffer;
  readonly headers: IncomingHttpHeaders;
}

/** POSTs one JSON body to `url` on `agent`'s connection and reads the whole answer. */
export function postJson(
  url: URL,
  agent: Agent,
  body: string,
  headers: Record<string, string> = {},
): Promise<Posted> {
  return new Promise((resolve, reject) => {
    const sent = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...headers,
    };
    const req = httpRequest(url, { method: 'POST', agent, headers: sent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One keep-alive connection to `<url>/mcp`, posting one body at a time. */
function httpPoster(url: string, token: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const endpoint = new URL('/mcp', url);
  const auth = { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream' };
  const post = async (body: string, extra: Record<string, string> = {}) => {
    const {
      status,
      body: answer,
      headers,
    } = await postJson(endpoint, agent, body, {
      ...auth,
      ...extra,
    });
    const session = headers['mcp-session-id'];
    return { status, body: answer, ...(typeof session === 'string' ? { session } : {}) };
  };
  return { post, close: () => agent.destroy() };
}

/** An initialized session on `<url>/mcp`, over one keep-alive connection. */
export async function rawHttpSession(url: string, token: string): Promise<RawSession> {
  const http = httpPoster(url, token);
  let sessionId: string | undefined;
  let nextId = 1;
  const headers = (): Record<string, string> =>
    sessionId === undefined
      ? {}
      : { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION };
  const session: RawSession = {
    async request(method, params) {
      const answer = await http.post(message(nextId++, method, params), headers());
      if (answer.status !== 200)
        throw new Error(`${method}: HTTP ${answer.status} ${answer.body.toString()}`);
      if (answer.session !== undefined) sessionId = answer.session;
      return answer.body;
    },
    close: http.close,
  };
  await session.request('initialize', INITIALIZE);
  await http.post(message(undefined, 'notifications/initialized'), headers());
  return session;
}

const MODERN_VERSION = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': INITIALIZE.clientInfo,
};

/** 2026-07-28 requests on `<url>/mcp`: no session, the envelope (and its headers) in every request. */
export function rawModernHttp(url: string, token: string): RawSession {
  const http = httpPoster(url, token);
  let nextId = 1;
  return {
    async request(method, params) {
      const body = message(nextId++, method, { ...params, _meta: ENVELOPE });
      const field = mcpNameField(method);
      const name = field === undefined ? undefined : params?.[field];
      const headers = {
        'mcp-protocol-version': MODERN_VERSION,
        'mcp-method': method,
        // Required for a call, a get and a read: Coffer refuses the request without it.
        ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      };
      const answer = await http.post(body, headers);
      if (answer.status !== 200)
        throw new Error(`${method}: HTTP ${answer.status} ${answer.body.toString()}`);
      return answer.body;
    },
    close: http.close,
  };
}

/** An initialized session on the daemon's socket channel (the one a shim opens). */
export async function rawSocketSession(path: string, token: string): Promise<RawSession> {
  const socket = createConnection(path);
  const lines = new LineQueue(socket);
  socket.write(`${JSON.stringify({ coffer: 'hello', version: 1, token })}\n`);
  const ready = (await lines.next()).toString();
  if (!ready.includes('"ready"')) throw new Error(`socket hello refused: ${ready}`);
  return lineSession(
    (line) => socket.write(line),
    lines,
    () => socket.destroy(),
  );
}

/**
 * An initialized session through `coffer shim` (the `bin/coffer.js` given, with the
 * daemon's environment), on its stdio as an agent talks to it. `pid` is the shim's.
 */
export function rawShimSession(bin: string, env: NodeJS.ProcessEnv): Promise<RawStdioSession> {
  return rawStdioSession(process.execPath, [bin, 'shim'], env);
}

/** A session on a stdio process's own stdin/stdout; `stop` ends it and awaits its exit. */
export interface RawStdioSession extends RawSession {
  readonly pid: number;
  stop(): Promise<void>;
}

/** An initialized session with a process spawned for it (an upstream, a shim), on its stdio. */
export async function rawStdioSession(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<RawStdioSession> {
  const child = spawnOwned(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const stop = () => stopChild(child);
  // A write to a process that has died fails with EPIPE: its stdout's close already fails
  // the request waiting for an answer.
  child.stdin!.on('error', () => undefined);
  try {
    const lines = new LineQueue(child.stdout!);
    const session = await lineSession(
      (line) => child.stdin!.write(line),
      lines,
      () => void stop(),
    );
    return { ...session, pid: child.pid ?? -1, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A session of one JSON-RPC message per line, initialized. */
async function lineSession(
  write: (line: string) => void,
  lines: LineQueue,
  close: () => void,
): Promise<RawSession> {
  let nextId = 1;
  const session: RawSession = {
    async request(method, params) {
      const id = nextId++;
      write(`${message(id, method, params)}\n`);
      const answers = answerOf(id);
      for (;;) {
        const line = await lines.next();
        // Notifications (a log line, list_changed) may come in between: not this answer.
        if (answers(line)) return line;
      }
    },
    close,
  };
  await session.request('initialize', INITIALIZE);
  write(`${message(undefined, 'notifications/initialized')}\n`);
  return session;
}

/**
 * Whether a line is the answer to `id`, from its ends only: Coffer writes an answer as
 * `{"jsonrpc":"2.0","id":…,`; an SDK server (a direct upstream) writes it as
 * `{"result":…,"jsonrpc":"2.0","id":…}` or the same with `"error"`.
 */
function answerOf(id: number): (line: Buffer) => boolean {
  const prefix = Buffer.from(`{"jsonrpc":"2.0","id":${id},`);
  const suffix = Buffer.from(`"jsonrpc":"2.0","id":${id}}`);
  return (line) =>
    line.subarray(0, prefix.length).equals(prefix) ||
    (line.subarray(line.length - suffix.length).equals(suffix) &&
      SDK_ANSWER_STARTS.some((start) => line.subarray(0, start.length).equals(start)));
}

const SDK_ANSWER_STARTS = [Buffer.from('{"result":'), Buffer.from('{"error":')];

/**
 * The lines a socket delivers, one `next()` each, as bytes without the newline. Once the
 * stream fails or ends, every waiting and later `next()` rejects: a session whose
 * process died must fail its caller, not leave the bench waiting forever.
 */
class LineQueue {
  private readonly ready: Buffer[] = [];
  private readonly waiting: { resolve: (line: Buffer) => void; reject: (e: Error) => void }[] = [];
  private partial: Buffer[] = [];
  private failure: Error | undefined;

  constructor(socket: Readable) {
    socket.on('data', (chunk: Buffer) => this.feed(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new Error('the stream closed')));
  }

  next(): Promise<Buffer> {
    const line = this.ready.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const waiter of this.waiting.splice(0)) waiter.reject(this.failure);
  }

  private feed(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(10); end >= 0; end = chunk.indexOf(10, start)) {
      this.partial.push(chunk.subarray(start, end));
      this.emit(Buffer.concat(this.partial));
      this.partial = [];
      start = end + 1;
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
  }

  private emit(line: Buffer): void {
    const waiter = this.waiting.shift();
    if (waiter === undefined) this.ready.push(line);
    else waiter.resolve(line);
  }
}
