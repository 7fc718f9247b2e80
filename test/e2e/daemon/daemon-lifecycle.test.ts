import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../src/discovery/process-check.js';
import {
  assertBuilt,
  cofferEnv,
  freePortBlock,
  ProcessTracker,
  readDaemonJson,
  runCoffer,
  spawnFakeDaemon,
  waitForTitle,
} from '../../integration/daemon/daemon-harness.js';

/** The daemon's lifecycle as a user drives it: `coffer start`, `status`, `stop`. */
const tracker = new ProcessTracker();

beforeAll(() => assertBuilt());
afterEach(() => tracker.cleanup());

describe('coffer start / status / stop', () => {
  it('takes a relative COFFER_HOME from where coffer runs, not from the daemon', async () => {
    const { home, block } = await tracker.userEnv();
    // The daemon discovery spawns runs in the user's home: it must get the same folder.
    const env = cofferEnv({ home: basename(home), portRange: block.env });
    const started = await runCoffer(['start'], env, 45_000, dirname(home));
    expect(started.code, started.stderr).toBe(0);
    expect(readDaemonJson(home)).toMatchObject({ port: block.first });
    const stopped = await runCoffer(['stop'], env, 45_000, dirname(home));
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(readDaemonJson(home)).toBeUndefined();
  });

  it('starts in the background, reports status, stops gracefully', async () => {
    const { home, block, env } = await tracker.userEnv();

    const started = await runCoffer(['start'], env);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toBe(`http://127.0.0.1:${block.first}/mcp\n`);
    expect(started.stderr).toMatch(/Coffer daemon started \(pid \d+, port \d+\)/);
    const record = readDaemonJson(home)!;
    const pid = record['pid'] as number;
    expect(isProcessAlive(pid)).toBe(true);

    const again = await runCoffer(['start'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(started.stdout);
    expect(again.stderr).toContain(`already running (pid ${pid}`);

    const json = await runCoffer(['status', '--json'], env);
    expect(json.code, json.stderr).toBe(0);
    const status = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(status).toMatchObject({ running: true, pid, port: block.first });
    expect(typeof status['uptime_seconds']).toBe('number');
    expect(json.stdout).not.toContain(record['token'] as string);

    const human = await runCoffer(['status'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Coffer daemon: running');
    expect(human.stdout).toContain(`pid:      ${pid}`);
    expect(human.stdout).toContain(`endpoint: http://127.0.0.1:${block.first}/mcp`);
    expect(human.stdout).toMatch(/uptime: +\d+/);

    const stopped = await runCoffer(['stop'], env);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toBe(`Coffer daemon stopped (pid ${pid})\n`);
    expect(readDaemonJson(home)).toBeUndefined();
    expect(isProcessAlive(pid)).toBe(false);

    const after = await runCoffer(['status'], env);
    expect(after.code).toBe(5);
    expect(after.stdout).toBe('Coffer daemon: not running\n');
    const stopAgain = await runCoffer(['stop'], env);
    expect(stopAgain.code).toBe(0);
    expect(stopAgain.stdout).toContain('not running');
  });

  it('stop falls back to SIGTERM when the API refuses (token mismatch)', async () => {
    const { home, env: base } = await tracker.userEnv();
    // The daemon would write its own daemon.json back within 2 s: not during this test.
    const env = { ...base, COFFER_DAEMON_FILE_CHECK_MS: '600000' };
    expect((await runCoffer(['start'], env)).code).toBe(0);
    const record = readDaemonJson(home)!;
    const pid = record['pid'] as number;
    writeFileSync(join(home, 'daemon.json'), JSON.stringify({ ...record, token: 'x'.repeat(32) }), {
      mode: 0o600,
    });
    const stopped = await runCoffer(['stop'], env);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain('sending SIGTERM');
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('stop signals a coffer-daemon that no longer accepts connections', async () => {
    const { home, block, env } = await tracker.userEnv();
    const fake = tracker.child(spawnFakeDaemon());
    await waitForTitle(fake.pid!);
    writeFileSync(
      join(home, 'daemon.json'),
      JSON.stringify({
        version: 1,
        pid: fake.pid,
        port: block.last,
        token: 'y'.repeat(32),
        started_at: new Date().toISOString(),
        binary_path: 'bin/coffer.js',
      }),
      { mode: 0o600 },
    );
    const stopped = await runCoffer(['stop'], env);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toBe(`Coffer daemon stopped (pid ${fake.pid})\n`);
  });

  it('start fails with exit 5, naming the range, when every port is taken', async () => {
    const { home, env } = await tracker.userEnv();
    const block = await freePortBlock(2);
    const { occupy, closeServer } = await import('../../integration/daemon/daemon-harness.js');
    const servers = await occupy(block);
    try {
      const result = await runCoffer(['start'], { ...env, COFFER_PORT_RANGE: block.env });
      expect(result.code).toBe(5);
      expect(result.stderr).toContain(`${block.first}-${block.last}`);
      expect(result.stderr).toMatch(/^coffer: /);
      expect(readDaemonJson(home)).toBeUndefined();
    } finally {
      await Promise.all(servers.map(closeServer));
    }
  });

  it('--version, --help and usage errors', async () => {
    const { env } = await tracker.userEnv();
    const version = await runCoffer(['--version'], env);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = await runCoffer(['--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: coffer');
    const daemonHelp = await runCoffer(['daemon', '--help'], env);
    expect(daemonHelp.code).toBe(0);
    expect(daemonHelp.stdout).toContain('foreground');
    const unknown = await runCoffer(['nope'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^coffer: unknown command 'nope'/);
  });
});
