import { connect, type Socket } from 'node:net';

/**
 * A client of the daemon's socket channel (docs/SHIM-SOCKET contract) for tests: writes
 * JSON lines, and waits for a line that matches, never for a fixed time.
 */
export class SocketClient {
  readonly lines: unknown[] = [];
  private buffer = '';
  private readonly waiters = new Set<() => void>();
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let at = this.buffer.indexOf('\n'); at !== -1; at = this.buffer.indexOf('\n')) {
        this.lines.push(JSON.parse(this.buffer.slice(0, at)));
        this.buffer = this.buffer.slice(at + 1);
      }
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static open(path: string): Promise<SocketClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(path, () => resolve(new SocketClient(socket)));
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  /** The first line (from `from` on) that `match` accepts; rejects if the socket closes first. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON lines of any shape
  async next(match: (line: any) => boolean, from = 0, timeoutMs = 20_000): Promise<any> {
    const end = Date.now() + timeoutMs;
    const deadline = setTimeout(() => this.wake(), timeoutMs);
    try {
      for (;;) {
        const found = this.lines.slice(from).find(match);
        if (found !== undefined) return found;
        if (this.closed) throw new Error(`socket closed; lines: ${JSON.stringify(this.lines)}`);
        if (Date.now() >= end)
          throw new Error(`no matching line; lines: ${JSON.stringify(this.lines)}`);
        await new Promise<void>((resolve) => this.waiters.add(resolve));
      }
    } finally {
      clearTimeout(deadline);
    }
  }

  /** Resolves once the daemon closed the connection. */
  async ended(): Promise<void> {
    while (!this.closed) await new Promise<void>((resolve) => this.waiters.add(resolve));
  }

  close(): void {
    this.socket.end();
  }

  private wake(): void {
    for (const waiter of this.waiters) waiter();
    this.waiters.clear();
  }
}
