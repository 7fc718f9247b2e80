import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { instructionsFile } from '../../../src/daemon/instructions-file.js';
import { silentLogger } from '../../../src/observability/logger.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function fileIn(): { path: string; home: string } {
  const home = mkdtempSync(join(tmpdir(), 'coffer-instructions-'));
  homes.push(home);
  return { home, path: join(home, 'server-instructions.json') };
}

describe('server-instructions.json', () => {
  it('keeps what servers said, private, and reads it back', () => {
    const { path } = fileIn();
    const file = instructionsFile(path, silentLogger());
    file.write(new Map([['docs', 'Search first.']]));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ servers: { docs: 'Search first.' } });
    expect([...instructionsFile(path, silentLogger()).read()]).toEqual([['docs', 'Search first.']]);
  });

  it('reads a missing or damaged file as empty: servers say it again when next connected', () => {
    const { path } = fileIn();
    expect([...instructionsFile(path, silentLogger()).read()]).toEqual([]);
    writeFileSync(path, '{"servers": {"docs": 42}}');
    expect([...instructionsFile(path, silentLogger()).read()]).toEqual([]);
    writeFileSync(path, 'not json');
    expect([...instructionsFile(path, silentLogger()).read()]).toEqual([]);
  });

  it('logs a write that fails instead of failing the connection that heard it', () => {
    const { home } = fileIn();
    const warnings: unknown[] = [];
    const logger = { ...silentLogger(), warn: (...args: unknown[]) => warnings.push(args) };
    // A folder where the file should be: the rename cannot replace it.
    const file = instructionsFile(home, logger as never);
    expect(() => file.write(new Map([['docs', 'x']]))).not.toThrow();
    expect(warnings).toHaveLength(1);
    // Nor does it leave its temporary file beside the folder.
    expect(existsSync(`${home}.${process.pid}.tmp`)).toBe(false);
  });
});
