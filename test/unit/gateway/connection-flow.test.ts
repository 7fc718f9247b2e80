import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ConnectionFlow } from '../../../src/gateway/connection-flow.js';

/** A socket's flow-control surface: paused or not, and whether its writes wait to drain. */
class FakeSocket extends EventEmitter {
  paused = false;
  writableNeedDrain = false;
  pause(): this {
    this.paused = true;
    return this;
  }
  resume(): this {
    this.paused = false;
    return this;
  }
  isPaused(): boolean {
    return this.paused;
  }
  /** The shim read what it was sent. */
  drain(): void {
    this.writableNeedDrain = false;
    this.emit('drain');
  }
}

describe('ConnectionFlow', () => {
  it('reads on while the unanswered requests fit the window', () => {
    const socket = new FakeSocket();
    const flow = new ConnectionFlow(socket, 100);
    flow.requested(1, 60);
    flow.requested(2, 40);
    expect(socket.paused).toBe(false);
  });

  it('pauses past the window and reads again once an answer frees room', () => {
    const socket = new FakeSocket();
    const flow = new ConnectionFlow(socket, 100);
    flow.requested(1, 60);
    flow.requested(2, 60);
    expect(socket.paused).toBe(true);
    flow.settled(2);
    expect(socket.paused).toBe(false);
  });

  it('tells 1 from "1", counts an id once, and ignores answers to what it never saw', () => {
    const socket = new FakeSocket();
    const flow = new ConnectionFlow(socket, 100);
    flow.requested(1, 60);
    flow.requested('1', 60);
    expect(socket.paused).toBe(true);
    flow.settled('1');
    flow.settled('unknown');
    expect(socket.paused).toBe(false);
    flow.requested(1, 60); // already counted: a second request under a live id adds nothing
    expect(socket.paused).toBe(false);
  });

  it('pauses while the shim is not reading and reads again when the socket drains', () => {
    const socket = new FakeSocket();
    const flow = new ConnectionFlow(socket, 100);
    socket.writableNeedDrain = true;
    flow.update();
    expect(socket.paused).toBe(true);
    socket.drain();
    expect(socket.paused).toBe(false);
  });

  it('stays paused until both the window has room and the socket has drained', () => {
    const socket = new FakeSocket();
    const flow = new ConnectionFlow(socket, 100);
    flow.requested(1, 150);
    socket.writableNeedDrain = true;
    flow.update();
    socket.drain();
    expect(socket.paused, 'the window is still full').toBe(true);
    socket.writableNeedDrain = true;
    flow.settled(1);
    expect(socket.paused, 'the socket still waits to drain').toBe(true);
    socket.drain();
    expect(socket.paused).toBe(false);
  });

  it('keeps one drain listener for the connection, however many writes wait', () => {
    const socket = new FakeSocket();
    const flow = new ConnectionFlow(socket, 100);
    for (let write = 0; write < 50; write += 1) {
      socket.writableNeedDrain = true;
      flow.update();
      socket.drain();
    }
    expect(socket.listenerCount('drain')).toBe(1);
  });
});
