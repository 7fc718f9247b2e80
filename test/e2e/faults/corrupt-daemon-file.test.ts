import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isCofferDaemonProcess, isProcessAlive } from '../../../src/discovery/process-check.js';
import {
  assertBuilt,
  ProcessTracker,
  readDaemonJson,
  runCoffer,
} from '../../integration/daemon/daemon-harness.js';
import { ShimClient } from '../../integration/shim/support/shim-client.js';

/**
 * daemon.json is the one file every client trusts to find the daemon. Whatever is in it
 * (garbage, a torn write, a pid long gone, a pid now used by another program), `coffer
 * status` says why no daemon runs and exits 5 at once; `coffer start` and `coffer shim`
 * start a daemon anyway; a file that is not a record is kept as daemon.json.bak-<time>
 * for a post-mortem; and nobody else's process is touched.
 *
 * Unit-level parsing is test/unit/discovery/daemon-record.test.ts; the discovery steps one
 * by one (ensureDaemon in-process) are test/integration/daemon/discovery.test.ts. These runs
 * go through the built CLI and shim, as a user meets the fault.
 */
const tracker = new ProcessTracker();
/**
 * Only ends a command that sits on a bad daemon.json (a hang fails the test on the signal):
 * a CLI run that starts a daemon on a busy 2-core machine took well over 20 s, and `start`
 * itself waits up to 60 s for the daemon to serve.
 */
const HANG_MS = 90_000;

beforeAll(() => assertBuilt());
afterEach(() => tracker.cleanup());

const validRecord = (pid: number, port = 1): string =>
  `${JSON.stringify({
    version: 1,
    pid,
    port,
    token: 'abcdefghijklmnopqrstuvwxyz012345',
    started_at: '2026-01-01T00:00:00.000Z',
    binary_path: 'bin/coffer.js',
  })}\n`;

function deadPid(): number {
  const { pid } = spawnSync('true');
  return pid;
}

function backups(home: string): string[] {
  return readdirSync(home).filter((name) => name.startsWith('daemon.json.bak-'));
}

interface Corruption {
  readonly name: string;
  /** The file's contents; may start a process of ours that the file then names. */
  contents(): string;
  /** What `coffer status` gives as the reason. */
  readonly reason: RegExp;
  /** Not a record at all: start must back it up. */
  readonly backedUp: boolean;
}

const unrelated: number[] = [];
const corruptions: Corruption[] = [
  {
    name: 'garbage bytes',
    contents: () => '\u0000\u0001{{{ not json at all',
    reason: /daemon\.json is unreadable: it is not valid JSON/,
    backedUp: true,
  },
  {
    name: 'a record cut off mid-write',
    contents: () => validRecord(process.pid).slice(0, 40),
    reason: /daemon\.json is unreadable: it is not valid JSON/,
    backedUp: true,
  },
  {
    name: 'an empty file',
    contents: () => '',
    reason: /daemon\.json is unreadable/,
    backedUp: true,
  },
  {
    name: 'JSON of the wrong shape',
    contents: () => '{"version":1,"pid":"twelve","port":[]}',
    reason: /daemon\.json is unreadable: "pid" is not a positive integer/,
    backedUp: true,
  },
  {
    name: 'the pid of a process that has exited',
    contents: () => validRecord(deadPid()),
    reason: /pid \d+ in daemon\.json has exited/,
    backedUp: false,
  },
  {
    name: 'the pid of an unrelated live process',
    contents: () => {
      const sleeper = tracker.child(spawn('sleep', ['300'], { stdio: 'ignore' }));
      unrelated.push(sleeper.pid!);
      return validRecord(sleeper.pid!);
    },
    reason: /pid \d+ in daemon\.json is another program/,
    backedUp: false,
  },
];

describe.runIf(process.platform === 'linux')('a corrupted daemon.json', () => {
  it.each(corruptions)('$name: status explains, start recovers', async (corruption) => {
    const { home, env } = await tracker.userEnv();
    const contents = corruption.contents();
    writeFileSync(join(home, 'daemon.json'), contents, { mode: 0o600 });

    const status = await runCoffer(['status'], env, HANG_MS);
    expect(status.signal, 'status hung').toBeNull();
    expect(status.code).toBe(5);
    expect(status.stdout).toMatch(corruption.reason);

    const started = await runCoffer(['start'], env, HANG_MS);
    expect(started.signal, 'start hung').toBeNull();
    expect(started.code, started.stderr).toBe(0);
    expect(started.stderr).toMatch(/Coffer daemon started \(pid \d+/);
    const record = readDaemonJson(home)!;
    expect(isCofferDaemonProcess(record['pid'] as number)).toBe(true);
    if (corruption.backedUp) {
      const [backup, ...more] = backups(home);
      expect(more).toEqual([]);
      expect(readFileSync(join(home, backup!), 'utf8')).toBe(contents);
    } else {
      expect(backups(home)).toEqual([]);
    }

    const again = await runCoffer(['status', '--json'], env, HANG_MS);
    expect(JSON.parse(again.stdout)).toMatchObject({ running: true, pid: record['pid'] });
    for (const pid of unrelated.splice(0)) expect(isProcessAlive(pid)).toBe(true);
  });

  it('a shim meeting garbage in daemon.json starts a daemon and serves', async () => {
    const { home, env } = await tracker.userEnv();
    writeFileSync(join(home, 'daemon.json'), '{"version":1,"pid":', { mode: 0o600 });
    const client = ShimClient.spawn(env);
    tracker.child(client.child);
    const init = await client.initialize();
    expect(init.result?.serverInfo?.name).toBe('coffer');
    const list = await client.request('tools/list');
    expect(Array.isArray(list.result?.tools)).toBe(true);
    expect(backups(home)).toHaveLength(1);
    expect((await client.close()).code).toBe(0);
    expect(client.nonJsonRpcLines()).toEqual([]);
  });
});
