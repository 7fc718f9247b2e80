import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../src/observability/logger.js';
import {
  RotatingFile,
  rotationFromEnv,
  sharedRotatingFile,
} from '../../../src/observability/rotating-file.js';

describe('RotatingFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'coffer-rotate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('rotates by size and keeps a bounded number of 0600 files', () => {
    const path = join(dir, 'logs', 'coffer.log');
    const file = new RotatingFile(path, { maxBytes: 100, files: 3 });
    for (let i = 0; i < 40; i++)
      file.write(`line ${String(i).padStart(3, '0')} ${'x'.repeat(20)}\n`);
    file.end();
    expect(existsSync(path)).toBe(true);
    expect(existsSync(`${path}.1`)).toBe(true);
    expect(existsSync(`${path}.2`)).toBe(true);
    expect(existsSync(`${path}.3`)).toBe(false);
    for (const name of [path, `${path}.1`, `${path}.2`]) {
      expect(statSync(name).size).toBeLessThanOrEqual(100);
      expect(statSync(name).mode & 0o777).toBe(0o600);
    }
    // Lines flushed together are still split between files at line boundaries only.
    for (const name of [path, `${path}.1`, `${path}.2`])
      expect(readFileSync(name, 'utf8')).toMatch(/^(line \d{3} x{20}\n)+$/);
    // The newest line is in the live file, older ones in .1, then .2.
    expect(readFileSync(path, 'utf8')).toContain('line 039');
    expect(readFileSync(`${path}.2`, 'utf8')).not.toContain('line 039');
  });

  it('buffers writes and flushes them together after the flush delay', () => {
    vi.useFakeTimers();
    try {
      const path = join(dir, 'up.log');
      const file = new RotatingFile(path, { maxBytes: 1_000_000, files: 2, flushDelayMs: 25 });
      file.write('one\n');
      vi.advanceTimersByTime(24);
      file.write('two\n');
      expect(existsSync(path)).toBe(false);
      vi.advanceTimersByTime(1);
      expect(readFileSync(path, 'utf8')).toBe('one\ntwo\n');
      file.end();
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes string lines and byte chunks in the order they came, in one flush', () => {
    const path = join(dir, 'mixed.log');
    const file = new RotatingFile(path, { maxBytes: 1_000_000, files: 2 });
    file.write('one\n');
    file.write(Buffer.from('twö\n'));
    file.write('three\n');
    file.end();
    expect(readFileSync(path, 'utf8')).toBe('one\ntwö\nthree\n');
  });

  it('is shared per path, so concurrent writers do not rotate each other away', () => {
    const path = join(dir, 'upstream-x.log');
    expect(sharedRotatingFile(path)).toBe(sharedRotatingFile(join(dir, '.', 'upstream-x.log')));
  });

  it('is what the pino logger writes to for a file destination', async () => {
    const path = join(dir, 'coffer.log');
    const logger = createLogger({ destination: path });
    logger.info({ hello: 'world' }, 'written');
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      msg: 'written',
      hello: 'world',
    });
  });

  it('reads COFFER_LOG_MAX_BYTES and COFFER_LOG_FILES, defaulting to 10 MiB × 3', () => {
    expect(rotationFromEnv({})).toEqual({ maxBytes: 10 * 1024 * 1024, files: 3 });
    expect(rotationFromEnv({ COFFER_LOG_MAX_BYTES: '2048', COFFER_LOG_FILES: '5' })).toEqual({
      maxBytes: 2048,
      files: 5,
    });
  });
});
