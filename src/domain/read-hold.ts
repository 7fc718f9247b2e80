/**
 * Back-pressure between a stream read and the stream it feeds: while the writer's buffer
 * is full (the peer on its far side is not reading), the reader is paused, and it resumes
 * once the writer drains or closes. Without it a peer that never reads makes every
 * process on the path buffer all that is sent toward it: `coffer shim` and the daemon
 * grew to gigabytes for a client that wrote calls and never read their answers.
 */

export interface PausableReader {
  pause(): unknown;
  resume(): unknown;
  isPaused(): boolean;
}

export interface DrainableWriter {
  /** Node's writable flag: a write returned false and 'drain' has not come yet. */
  readonly writableNeedDrain: boolean;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/**
 * Call after writing to `writer`: pauses `reader` if the writer is full. True when it
 * paused it now (a hold began), false when there was nothing to hold or a hold already
 * runs. The reader's own pause state is the hold's state, so one hold at a time.
 */
export function holdWhileFull(reader: PausableReader, writer: DrainableWriter): boolean {
  if (!writer.writableNeedDrain || reader.isPaused()) return false;
  reader.pause();
  const release = (): void => {
    writer.off('drain', release);
    writer.off('close', release);
    reader.resume();
  };
  writer.once('drain', release);
  writer.once('close', release);
  return true;
}
