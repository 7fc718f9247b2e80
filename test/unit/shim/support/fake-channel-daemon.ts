import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LineReader } from '../../../../src/domain/line-reader.js';

export type Message = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON as parsed

/** What the fake answers a hello with; undefined: it never answers. */
export type HelloAnswer = (hello: Message) => Message | undefined;
/** Answers a session line; `send` writes a line back on the same connection. */
export type Handler = (message: Message, send: (reply: Message) => void) => void;

export const TOKEN = 'fake-token';

/** Resolves once `check` holds, re-checking whenever `events` says something changed. */
export function until<T>(events: EventEmitter, check: () => T | undefined | false): Promise<T> {
  return new Promise((resolve) => {
    const test = (): void => {
      const found = check();
      if (found === undefined || found === false) return;
      events.off('change', test);
      resolve(found);
    };
    events.on('change', test);
    test();
  });
}

/** A session answer like the daemon's: initialize, then `result: {method}` for the rest. */
export const defaultHandler: Handler = (message, send) => {
  if (message.id === undefined || message.method === undefined) return;
  if (message.method === 'test/hang') return;
  if (message.method === 'initialize') {
    const capabilities = { tools: { listChanged: true }, prompts: {}, resources: {} };
    return send({ jsonrpc: '2.0', id: message.id, result: { capabilities, protocolVersion: 'x' } });
  }
  send({ jsonrpc: '2.0', id: message.id, result: { method: message.method } });
};

/**
 * The daemon side of the shim channel on a real Unix socket in a temporary folder: it
 * records every hello and every session line, per connection, and answers as told.
 */
export class FakeChannelDaemon extends EventEmitter {
  readonly hellos: Message[] = [];
  /** Session lines, each with the number of the connection it came on (1, 2, …). */
  readonly received: Array<{ readonly connection: number; readonly message: Message }> = [];
  readonly rawLines: string[] = [];
  ended = 0;
  helloAnswer: HelloAnswer = () => ({ coffer: 'ready', version: 1 });
  handler: Handler = defaultHandler;
  private readonly sockets = new Set<Socket>();
  private connections = 0;

  private constructor(
    private readonly server: Server,
    private readonly dir: string,
    readonly path: string,
  ) {
    super();
  }

  static async start(): Promise<FakeChannelDaemon> {
    const dir = mkdtempSync(join(tmpdir(), 'coffer-shim-unit-'));
    const path = join(dir, 'coffer.sock');
    const server = createServer();
    const fake = new FakeChannelDaemon(server, dir, path);
    server.on('connection', (socket) => fake.accept(socket));
    await new Promise<void>((resolve) => server.listen(path, resolve));
    return fake;
  }

  get endpoint(): { pid: number; socket: string; token: string } {
    return { pid: 1, socket: this.path, token: TOKEN };
  }

  methods(connection?: number): string[] {
    return this.received
      .filter((entry) => connection === undefined || entry.connection === connection)
      .map((entry) => String(entry.message.method ?? `response:${String(entry.message.id)}`));
  }

  /** Sends `message` on every live connection (a notification, a server→client request). */
  broadcast(message: Message): void {
    for (const socket of this.sockets) socket.write(`${JSON.stringify(message)}\n`);
  }

  /** Writes `line` as it is, and a newline, on every live connection. */
  writeRaw(line: string): void {
    for (const socket of this.sockets) socket.write(`${line}\n`);
  }

  /** The daemon stopping: every connection is closed. */
  dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.dropAll();
    await new Promise((resolve) => this.server.close(resolve));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private accept(socket: Socket): void {
    const connection = (this.connections += 1);
    this.sockets.add(socket);
    let greeted = false;
    const send = (reply: Message): void => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(reply)}\n`);
    };
    const reader = new LineReader({
      onLine: (line) => {
        const message = JSON.parse(line) as Message;
        if (!greeted) {
          greeted = true;
          this.hellos.push(message);
          const answer = this.helloAnswer(message);
          if (answer !== undefined) send(answer);
          if (answer?.coffer === 'refused') socket.end();
        } else {
          this.rawLines.push(line);
          this.received.push({ connection, message });
          this.handler(message, send);
        }
        this.emit('change');
      },
      onOverflow: () => undefined,
    });
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
    socket.on('error', () => undefined);
    socket.on('end', () => socket.end());
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.ended += 1;
      this.emit('change');
    });
  }
}
