import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../../../..');
export const cofferBin = join(repoRoot, 'bin/coffer.js');

export type Message = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON-RPC as parsed
export type Exit = { code: number | null; signal: NodeJS.Signals | null };
type Handler = (params: any) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON params

/**
 * An MCP client that drives `coffer shim` as an agent does (a child process, JSON-RPC on
 * its stdin/stdout), written raw so tests see exactly the bytes the shim writes.
 */
export class ShimClient {
  /** Every line the shim wrote to stdout, as written. */
  readonly lines: string[] = [];
  readonly messages: Message[] = [];
  stderr = '';
  readonly exited: Promise<Exit>;
  private nextId = 1;
  private buffer = '';
  private readonly waiting = new Map<string, (message: Message) => void>();
  private readonly handlers = new Map<string, Handler>();
  private readonly watchers: Array<() => void> = [];

  private constructor(readonly child: ChildProcess) {
    this.exited = new Promise((done) =>
      child.once('exit', (code, signal) => done({ code, signal })),
    );
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (text: string) => this.take(text));
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    child.stdin!.on('error', () => undefined);
  }

  static spawn(env: NodeJS.ProcessEnv, args: readonly string[] = []): ShimClient {
    const child = spawn(process.execPath, [cofferBin, 'shim', ...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new ShimClient(child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Answers daemon→client requests of `method` with the handler's result. */
  onRequest(method: string, handler: Handler): void {
    this.handlers.set(method, handler);
  }

  writeLine(line: string): void {
    this.child.stdin!.write(`${line}\n`);
  }

  send(message: Message): void {
    this.writeLine(JSON.stringify(message));
  }

  notify(method: string, params?: unknown): void {
    this.send({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
  }

  /** Sends a request and resolves with the whole response message (result or error). */
  request(method: string, params?: unknown, id: string | number = this.nextId++): Promise<Message> {
    const answer = this.response(id);
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return answer;
  }

  /** Resolves with the response for `id` (sent already or to be sent by the caller). */
  response(id: string | number): Promise<Message> {
    return new Promise((done) => this.waiting.set(JSON.stringify(id), done));
  }

  async initialize(capabilities: Message = {}, clientName = 'shim-test'): Promise<Message> {
    const response = await this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities,
      clientInfo: { name: clientName, version: '1.0.0' },
    });
    this.notify('notifications/initialized');
    return response;
  }

  /** Resolves once a message satisfying `test` has arrived (or already had). */
  async waitFor(test: (message: Message) => boolean, timeoutMs = 30_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(test);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error('timed out waiting for a message');
      await new Promise<void>((done) => {
        const timer = setTimeout(done, 100);
        this.watchers.push(() => {
          clearTimeout(timer);
          done();
        });
      });
    }
  }

  /** Ends stdin as an agent that quits does, and waits for the shim to exit. */
  async close(timeoutMs = 15_000): Promise<Exit> {
    this.child.stdin!.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }

  /** Every stdout line is one JSON-RPC 2.0 message: nothing else may reach an agent. */
  nonJsonRpcLines(): string[] {
    return this.lines.filter((line) => {
      try {
        const value: unknown = JSON.parse(line);
        return !(value !== null && typeof value === 'object' && 'jsonrpc' in value);
      } catch {
        return true;
      }
    });
  }

  private take(text: string): void {
    this.buffer += text;
    for (let nl = this.buffer.indexOf('\n'); nl !== -1; nl = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      this.lines.push(line);
      let message: Message;
      try {
        message = JSON.parse(line) as Message;
      } catch {
        continue;
      }
      this.messages.push(message);
      this.dispatch(message);
    }
    for (const wake of this.watchers.splice(0)) wake();
  }

  private dispatch(message: Message): void {
    if (typeof message.method === 'string' && message.id !== undefined) {
      const handler = this.handlers.get(message.method);
      if (handler !== undefined) {
        void Promise.resolve(handler(message.params)).then((result) =>
          this.send({ jsonrpc: '2.0', id: message.id, result }),
        );
      }
      return;
    }
    if (message.method === undefined && message.id !== undefined) {
      const key = JSON.stringify(message.id);
      this.waiting.get(key)?.(message);
      this.waiting.delete(key);
    }
  }
}
