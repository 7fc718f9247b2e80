import type { PausableReader } from '../domain/read-hold.js';

/** The socket a flow governs: read from and written to. */
export interface FlowSocket extends PausableReader {
  /** Node's writable flag: a write returned false and 'drain' has not come yet. */
  readonly writableNeedDrain: boolean;
  on(event: 'drain', listener: () => void): unknown;
}

/** Unanswered requests a shim may have in the daemon before reading from it waits. */
export const REQUEST_WINDOW_BYTES = 16 * 1024 * 1024;

/**
 * Back-pressure on one socket-channel connection. Reading from the shim pauses while
 *  - the shim is not reading what the daemon writes (the socket's buffer is full), or
 *  - the requests it sent that are not answered yet pass a window of bytes: a client
 *    writing calls faster than its servers take them would otherwise have every one of
 *    them parsed and queued in the daemon, toward a server's stdin.
 * What the shim sends meanwhile waits in the kernel, then in the shim, which stops
 * reading its client in turn (src/domain/read-hold.ts). A cancelled request gets no
 * answer (MCP), so a cancellation frees its bytes too.
 *
 * The window is large on purpose: a request waiting on the client's own answer (sampling,
 * elicitation) needs that answer read, so only a window full of such requests could wait
 * for ever, and 16 MiB of them is not a client's doing but a flood.
 */
export class ConnectionFlow {
  /** By id: a Map keeps 1 and "1" apart, as JSON-RPC does. */
  private readonly unanswered = new Map<string | number, number>();
  private bytes = 0;

  constructor(
    private readonly socket: FlowSocket,
    private readonly windowBytes = REQUEST_WINDOW_BYTES,
  ) {
    // One listener for the connection's life: a listener per write would pile up.
    socket.on('drain', () => this.update());
  }

  /** A request of `bytes` went to the session (a batch's line shared among its requests). */
  requested(id: string | number, bytes: number): void {
    if (this.unanswered.has(id)) return;
    this.unanswered.set(id, bytes);
    this.bytes += bytes;
    this.update();
  }

  /** The request `id` was answered, or cancelled by the client. */
  settled(id: string | number): void {
    const bytes = this.unanswered.get(id);
    if (bytes === undefined) return;
    this.unanswered.delete(id);
    this.bytes -= bytes;
    this.update();
  }

  /** After every write and every change of the window. */
  update(): void {
    const hold = this.bytes > this.windowBytes || this.socket.writableNeedDrain;
    if (hold === this.socket.isPaused()) return;
    if (hold) this.socket.pause();
    else this.socket.resume();
  }
}
