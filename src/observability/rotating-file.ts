import {
  closeSync,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * A size-bounded log file: `coffer.log`, then `coffer.log.1` … `.N` as it grows past
 * `maxBytes`, the oldest dropped. Files are 0600 whatever the umask (they may hold
 * what upstreams print). Writes are buffered and flushed together `flushDelayMs` later
 * (and at exit), so a log line never waits for the disk inside a request and a busy
 * daemon makes one write per batch rather than one per relayed call; a failing disk
 * drops lines instead of taking the daemon down.
 */
export interface RotationOptions {
  /** Rotate before a write would take the file past this. Default 10 MiB. */
  readonly maxBytes: number;
  /** Files kept in all, the live one included. Default 3. */
  readonly files: number;
  /** How long a line may wait for the lines after it; default 25 ms. */
  readonly flushDelayMs?: number;
}

export const DEFAULT_ROTATION: RotationOptions = { maxBytes: 10 * 1024 * 1024, files: 3 };

/** A flush this large happens at once rather than after the delay. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

// Flushing on the next turn of the event loop cost one write syscall per relayed call
// (each call logs one line); 25 ms batches them and stays invisible to anyone tailing.
const DEFAULT_FLUSH_DELAY_MS = 25;

/** `COFFER_LOG_MAX_BYTES` / `COFFER_LOG_FILES` override the defaults (tests use tiny ones). */
export function rotationFromEnv(env: NodeJS.ProcessEnv = process.env): RotationOptions {
  const read = (name: string, fallback: number): number => {
    const value = Number(env[name]);
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  return {
    maxBytes: read('COFFER_LOG_MAX_BYTES', DEFAULT_ROTATION.maxBytes),
    files: read('COFFER_LOG_FILES', DEFAULT_ROTATION.files),
  };
}

export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  private buffer: (string | Buffer)[] = [];
  /** Byte length of each piece of `buffer`. */
  private sizes: number[] = [];
  private buffered = 0;
  private scheduled = false;

  constructor(
    readonly path: string,
    private readonly options: RotationOptions = rotationFromEnv(),
  ) {
    open.add(this);
  }

  /** pino's destination contract: accepts a line, never throws. */
  write(chunk: string | Uint8Array): boolean {
    const piece = typeof chunk === 'string' ? chunk : Buffer.from(chunk);
    const bytes = typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
    open.add(this);
    this.buffer.push(piece);
    this.sizes.push(bytes);
    this.buffered += bytes;
    if (this.buffered >= MAX_BUFFERED_BYTES) this.flushSync();
    else if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(
        () => this.flushSync(),
        this.options.flushDelayMs ?? DEFAULT_FLUSH_DELAY_MS,
      ).unref();
    }
    return true;
  }

  /** pino's `logger.flush(cb)` calls this. */
  flush(callback?: (error?: Error) => void): void {
    this.flushSync();
    callback?.();
  }

  flushSync(): void {
    this.scheduled = false;
    const pending = this.buffer;
    const sizes = this.sizes;
    if (pending.length === 0) return;
    this.buffer = [];
    this.sizes = [];
    this.buffered = 0;
    try {
      this.appendAll(pending, sizes);
    } catch {
      // The log is best effort: a full disk must not fail the request that logged.
      this.closeFd();
    }
  }

  /** Flushes and closes; a later write reopens the file. */
  end(): void {
    this.flushSync();
    this.closeFd();
    open.delete(this);
  }

  /**
   * Lines that fit in the live file go out in one write (one syscall per flush rather
   * than one per line, i.e. per relayed call); a line that would take the file past
   * maxBytes starts the next group, so rotation still happens between lines.
   */
  private appendAll(pieces: readonly (string | Buffer)[], sizes: readonly number[]): void {
    if (this.fd === undefined) this.openFd(); // this.size is the live file's from here
    let group: (string | Buffer)[] = [];
    let groupBytes = 0;
    for (let index = 0; index < pieces.length; index++) {
      const size = sizes[index] ?? 0;
      if (group.length > 0 && this.size + groupBytes + size > this.options.maxBytes) {
        this.append(joined(group));
        group = [];
        groupBytes = 0;
      }
      group.push(pieces[index]!);
      groupBytes += size;
    }
    this.append(joined(group));
  }

  private append(bytes: Buffer): void {
    // One write larger than a whole file (a 64 KiB stderr chunk against a small bound)
    // would overshoot it: cut it so every file stays within maxBytes.
    for (let start = 0; start < bytes.length; start += this.options.maxBytes) {
      this.appendPiece(bytes.subarray(start, start + this.options.maxBytes));
    }
  }

  private appendPiece(bytes: Buffer): void {
    if (this.fd === undefined) this.openFd();
    if (this.size > 0 && this.size + bytes.length > this.options.maxBytes) {
      this.rotate();
      this.openFd();
    }
    const fd = this.fd;
    if (fd === undefined) return;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
    this.size += bytes.length;
  }

  private openFd(): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const fd = openSync(this.path, 'a', 0o600);
    fchmodSync(fd, 0o600);
    this.fd = fd;
    this.size = fstatSync(fd).size;
  }

  /** `.N-1` → `.N` … live → `.1`; what falls off the end is deleted. */
  private rotate(): void {
    this.closeFd();
    const archives = Math.max(0, this.options.files - 1);
    if (archives === 0) {
      unlinkQuietly(this.path);
      return;
    }
    unlinkQuietly(`${this.path}.${archives}`);
    for (let index = archives - 1; index >= 1; index--)
      renameQuietly(`${this.path}.${index}`, `${this.path}.${index + 1}`);
    renameQuietly(this.path, `${this.path}.1`);
  }

  private closeFd(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // Already closed.
    }
    this.fd = undefined;
  }
}

function joined(pieces: readonly (string | Buffer)[]): Buffer {
  if (pieces.every((piece) => typeof piece === 'string')) return Buffer.from(pieces.join(''));
  return Buffer.concat(
    pieces.map((piece) => (typeof piece === 'string' ? Buffer.from(piece) : piece)),
  );
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Absent: nothing to drop.
  }
}

function renameQuietly(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch {
    // Absent: nothing to shift.
  }
}

/** Every file with unflushed lines, flushed when the process exits (even on a crash). */
const open = new Set<RotatingFile>();
process.once('exit', () => {
  for (const file of open) file.flushSync();
});

const shared = new Map<string, RotatingFile>();

/**
 * One RotatingFile per path in this process: several upstream processes of one server
 * (one per session) write the same `upstream-<name>.log`, and two writers rotating one
 * file independently would lose lines.
 */
export function sharedRotatingFile(path: string, options?: RotationOptions): RotatingFile {
  const key = resolve(path);
  let file = shared.get(key);
  if (file === undefined) {
    file = new RotatingFile(key, options);
    shared.set(key, file);
  }
  return file;
}
