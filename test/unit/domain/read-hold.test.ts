import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { holdWhileFull } from '../../../src/domain/read-hold.js';

/**
 * Back-pressure with real Node streams: a writer whose far side starts taking its chunks
 * only when the test says so, and a reader in flowing mode.
 */
function slowWriter(): { writer: Writable; release: () => void } {
  const waiting: Array<() => void> = [];
  let reading = false;
  const writer = new Writable({
    highWaterMark: 8,
    write(_chunk, _encoding, done) {
      if (reading) done();
      else waiting.push(done);
    },
  });
  const release = (): void => {
    reading = true;
    waiting.splice(0).forEach((done) => done());
  };
  return { writer, release };
}

function flowingReader(): PassThrough {
  const reader = new PassThrough();
  reader.on('data', () => undefined);
  return reader;
}

describe('holdWhileFull', () => {
  it('leaves the reader flowing while the writer has room', () => {
    const reader = flowingReader();
    const { writer } = slowWriter();
    writer.write('1234');
    expect(holdWhileFull(reader, writer)).toBe(false);
    expect(reader.isPaused()).toBe(false);
  });

  it('pauses the reader while the writer is full and resumes it when it drains', async () => {
    const reader = flowingReader();
    const { writer, release } = slowWriter();
    writer.write('more than eight bytes');
    expect(holdWhileFull(reader, writer)).toBe(true);
    expect(reader.isPaused()).toBe(true);
    // A second write while held starts no second hold (and no second listener).
    writer.write('x');
    expect(holdWhileFull(reader, writer)).toBe(false);
    expect(writer.listenerCount('drain')).toBe(1);
    const drained = new Promise((resolve) => writer.once('drain', resolve));
    release();
    await drained;
    expect(reader.isPaused()).toBe(false);
    expect(writer.listenerCount('drain')).toBe(0);
    expect(writer.listenerCount('close')).toBe(0);
  });

  it('resumes the reader when the writer closes without draining', async () => {
    const reader = flowingReader();
    const { writer } = slowWriter();
    writer.write('more than eight bytes');
    holdWhileFull(reader, writer);
    const closed = new Promise((resolve) => writer.once('close', resolve));
    writer.destroy();
    await closed;
    expect(reader.isPaused()).toBe(false);
  });
});
