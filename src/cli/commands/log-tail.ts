import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';

/**
 * Reading a log that another process writes and rotates (coffer.log → coffer.log.1):
 * the last lines now, then whatever is appended, across rotations. Polls rather than
 * watches: fs.watch misses renames on some filesystems, and a poll every 250 ms is
 * nothing next to a human reading.
 */
const TAIL_BYTES = 1024 * 1024;
const POLL_MS = 250;

function readRange(fd: number, from: number, to: number): Buffer {
  const buffer = Buffer.alloc(Math.max(0, to - from));
  let offset = 0;
  while (offset < buffer.length) {
    const read = readSync(fd, buffer, offset, buffer.length - offset, from + offset);
    if (read === 0) break;
    offset += read;
  }
  return buffer.subarray(0, offset);
}

/** The last `count` complete lines and the offset they end at (where following starts). */
export function lastLines(path: string, count: number): { lines: string[]; end: number } {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const text = readRange(fd, Math.max(0, size - TAIL_BYTES), size).toString('utf8');
    const lines = text.split('\n');
    lines.pop(); // the part after the last newline: incomplete, or empty
    const start = size > TAIL_BYTES ? 1 : 0; // the first line of a cut chunk is partial
    return { lines: lines.slice(start).slice(-count), end: size };
  } finally {
    closeSync(fd);
  }
}

interface Cursor {
  fd: number;
  ino: number;
  position: number;
}

function openAt(path: string, position: number): Cursor | undefined {
  try {
    const fd = openSync(path, 'r');
    return { fd, ino: fstatSync(fd).ino, position };
  } catch {
    return undefined; // between a rotation's rename and the writer's next line
  }
}

/** Reads what was appended since the cursor; the tail of a line stays for next time. */
function drain(cursor: Cursor, pending: { text: string }, onLine: (line: string) => void): void {
  const size = fstatSync(cursor.fd).size;
  if (size < cursor.position) cursor.position = 0; // truncated in place
  const chunk = readRange(cursor.fd, cursor.position, size);
  cursor.position += chunk.length;
  const lines = (pending.text + chunk.toString('utf8')).split('\n');
  pending.text = lines.pop() ?? '';
  for (const line of lines) onLine(line);
}

/** Calls `onLine` for every line appended after `from`; runs until the process ends. */
export async function followLines(
  path: string,
  from: number,
  onLine: (line: string) => void,
): Promise<never> {
  let cursor = openAt(path, from);
  const pending = { text: '' };
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (cursor === undefined) {
      cursor = openAt(path, 0);
      continue;
    }
    drain(cursor, pending, onLine);
    let current: number | undefined;
    try {
      current = statSync(path).ino;
    } catch {
      current = undefined;
    }
    if (current !== cursor.ino) {
      // Rotated: the old file is complete (drained above); continue with the new one.
      closeSync(cursor.fd);
      cursor = openAt(path, 0);
    }
  }
}
