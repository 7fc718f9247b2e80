import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cofferPaths, type CofferPaths } from '../../../src/config/home.js';
import { checkDaemonFile } from '../../../src/daemon/daemon-file-guard.js';
import { writeDaemonFile } from '../../../src/daemon/daemon-file.js';
import type { DaemonRecord } from '../../../src/discovery/daemon-record.js';
import { createLogger } from '../../../src/observability/logger.js';

const ours: DaemonRecord = {
  version: 1,
  pid: process.pid,
  port: 8001,
  token: 'ours-ours-ours-ours-ours-ours-ou',
  started_at: '2026-12-03T00:00:00.000Z',
  binary_path: 'bin/coffer.js',
};
const theirs: DaemonRecord = {
  ...ours,
  pid: 424242,
  port: 8002,
  token: 'theirs-theirs-theirs-theirs-the',
};

describe('checkDaemonFile', () => {
  let home: string;
  let paths: CofferPaths;
  let replacedBy: number[];
  const check = (isDaemon: (pid: number) => boolean) =>
    checkDaemonFile({
      paths,
      record: ours,
      logger: createLogger({ destination: { write: () => true }, level: 'silent' }),
      onReplaced: (pid) => replacedBy.push(pid),
      isDaemon,
    });

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'coffer-guard-'));
    paths = cofferPaths(home);
    replacedBy = [];
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const token = () => JSON.parse(readFileSync(paths.daemonFile, 'utf8')).token as string;

  it('leaves its own file alone', () => {
    writeDaemonFile(paths, ours);
    expect(check(() => true)).toBe('ours');
    expect(replacedBy).toEqual([]);
  });

  it('writes a missing or damaged file again, private', () => {
    expect(check(() => true)).toBe('rewritten');
    expect(token()).toBe(ours.token);
    expect(statSync(paths.daemonFile).mode & 0o777).toBe(0o600);
    writeFileSync(paths.daemonFile, '{ torn');
    expect(check(() => true)).toBe('rewritten');
    expect(token()).toBe(ours.token);
  });

  it('replaces a record of a daemon that is gone', () => {
    writeDaemonFile(paths, theirs);
    expect(check(() => false)).toBe('rewritten');
    expect(token()).toBe(ours.token);
    expect(replacedBy).toEqual([]);
  });

  it('steps aside for another live daemon, leaving its file as it is', () => {
    writeDaemonFile(paths, theirs);
    expect(check((pid) => pid === theirs.pid)).toBe('replaced');
    expect(replacedBy).toEqual([theirs.pid]);
    expect(token()).toBe(theirs.token);
  });
});
