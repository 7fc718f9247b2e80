/**
 * A raw client of the HTTP+SSE transport (MCP 2024-11-05), the one mcp-hub's unified
 * endpoint speaks: a GET opens the event stream, whose first `endpoint` event names where
 * to POST; every answer comes back on the stream as a `message` event. Like
 * `raw-sessions.ts`, nothing is parsed beyond finding an answer's id, so the bench's own
 * CPU stays small beside the relay's.
 */
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { postJson, type RawSession } from './raw-sessions.js';

const INITIALIZE = {
  protocolVersion: '2024-11-05',
  capabilities: {},
  clientInfo: { name: 'coffer-bench-raw', version: '0.0.0' },
};

/** An initialized session on the HTTP+SSE endpoint `url` (e.g. mcp-hub's `/mcp`). */
export async function rawSseSession(url: string): Promise<RawSession> {
  const base = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const stream = await openStream(base);
  const events = new SseEvents(stream);
  const endpoint = new URL(await events.endpoint, base);
  let nextId = 1;
  const post = async (message: object) => {
    const { status } = await postJson(endpoint, agent, JSON.stringify(message));
    if (status >= 300) throw new Error(`POST ${endpoint.pathname}: HTTP ${status}`);
  };
  const session: RawSession = {
    async request(method, params) {
      const id = nextId++;
      const answer = events.answer(id);
      // It may fail (the stream closed) while the POST is out, or never come if the POST
      // fails: the caller hears of either through the awaits below, never as unhandled.
      answer.catch(() => undefined);
      await post({ jsonrpc: '2.0', id, method, params });
      return answer;
    },
    close() {
      stream.destroy();
      agent.destroy();
    },
  };
  try {
    await session.request('initialize', INITIALIZE);
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return session;
  } catch (error) {
    session.close();
    throw error;
  }
}

function openStream(url: URL): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers = { accept: 'text/event-stream' };
    const req = httpRequest(url, { method: 'GET', headers }, (res) => {
      if (res.statusCode === 200) resolve(res);
      else reject(new Error(`GET ${url.pathname}: HTTP ${res.statusCode}`));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The events of one stream: its endpoint, then answers handed to whoever waits for their id. */
class SseEvents {
  readonly endpoint: Promise<string>;
  private readonly waiting = new Map<
    number,
    { resolve: (answer: Buffer) => void; reject: (error: Error) => void }
  >();
  private buffered = '';
  private onEndpoint: (path: string) => void = () => undefined;
  private closed: Error | undefined;

  constructor(stream: IncomingMessage) {
    this.endpoint = new Promise((resolve, reject) => {
      this.onEndpoint = resolve;
      stream.once('close', () => reject(new Error('the event stream closed')));
    });
    // Answers still awaited when the stream ends never come: their callers fail.
    stream.once('close', () => {
      this.closed = new Error('the event stream closed');
      for (const waiter of this.waiting.values()) waiter.reject(this.closed);
      this.waiting.clear();
    });
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => this.feed(chunk));
  }

  answer(id: number): Promise<Buffer> {
    if (this.closed !== undefined) return Promise.reject(this.closed);
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }

  private feed(chunk: string): void {
    this.buffered += chunk.replace(/\r\n/g, '\n');
    for (let end = this.buffered.indexOf('\n\n'); end >= 0; end = this.buffered.indexOf('\n\n')) {
      this.dispatch(this.buffered.slice(0, end));
      this.buffered = this.buffered.slice(end + 2);
    }
  }

  private dispatch(event: string): void {
    const lines = event.split('\n');
    const type =
      lines
        .find((line) => line.startsWith('event:'))
        ?.slice(6)
        .trim() ?? 'message';
    const data = lines
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (type === 'endpoint') return this.onEndpoint(data);
    // The SDK writes `id` after `result`: the last match is the envelope's own.
    const id = [...data.matchAll(/"id"\s*:\s*(\d+)/g)].at(-1)?.[1];
    const waiter = id === undefined ? undefined : this.waiting.get(Number(id));
    if (waiter === undefined) return; // a notification, or an answer nobody waits for
    this.waiting.delete(Number(id));
    waiter.resolve(Buffer.from(data));
  }
}
