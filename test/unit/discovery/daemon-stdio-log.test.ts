import {
  closeSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cofferPaths } from '../../../src/config/home.js';
import { daemonStdioLogPath, openDaemonStdioLog } from '../../../src/discovery/daemon-stdio-log.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function paths() {
  const home = mkdtempSync(join(tmpdir(), 'coffer-stdio-log-'));
  homes.push(home);
  return cofferPaths(home);
}

/** What one spawned daemon would print: appended through the fd the spawner opened. */
function start(at: ReturnType<typeof paths>, printed: string, maxBytes: number): void {
  const fd = openDaemonStdioLog(at, maxBytes);
  try {
    writeSync(fd, printed);
  } finally {
    closeSync(fd);
  }
}

describe("a spawned daemon's stdio log", () => {
  it('is appended to while it is small, private to the user', () => {
    const at = paths();
    start(at, 'first start\n', 100);
    start(at, 'second start\n', 100);
    const path = daemonStdioLogPath(at);
    expect(readFileSync(path, 'utf8')).toBe('first start\nsecond start\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(existsSync(`${path}.1`)).toBe(false);
  });

  it('moves aside once past its bound, keeping the last full file and dropping older ones', () => {
    const at = paths();
    const path = daemonStdioLogPath(at);
    start(at, 'a'.repeat(60), 100);
    start(at, 'b'.repeat(60), 100);
    // 120 bytes now: the next start begins a new file.
    start(at, 'third\n', 100);
    expect(readFileSync(path, 'utf8')).toBe('third\n');
    expect(readFileSync(`${path}.1`, 'utf8')).toBe('a'.repeat(60) + 'b'.repeat(60));
    writeFileSync(path, 'c'.repeat(200));
    start(at, 'fourth\n', 100);
    expect(readFileSync(`${path}.1`, 'utf8')).toBe('c'.repeat(200));
    expect(readFileSync(path, 'utf8')).toBe('fourth\n');
  });
});
