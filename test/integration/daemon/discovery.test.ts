import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cofferPaths } from '../../../src/config/home.js';
import { ensurePrivateDir } from '../../../src/config/private-files.js';
import { ensureDaemon, findDaemon, inspectDaemon } from '../../../src/discovery/index.js';
import { isProcessAlive } from '../../../src/discovery/process-check.js';
import {
  assertBuilt,
  binPath,
  cofferEnv,
  daemonPidsLogged,
  distDiscovery,
  exited,
  freePortBlock,
  makeHome,
  ProcessTracker,
  readDaemonJson,
  spawnFakeDaemon,
  waitForTitle,
} from './daemon-harness.js';

/**
 * The discovery sequence of the research notes, each case against real processes:
 * missing, invalid JSON (backed up), dead pid, live pid of another program, a
 * coffer-daemon that refuses TCP, and ten processes racing to spawn.
 */
const tracker = new ProcessTracker();

beforeAll(() => assertBuilt());
afterEach(() => tracker.cleanup());

async function setup(extra: NodeJS.ProcessEnv = {}) {
  const home = tracker.home(await makeHome());
  const block = await freePortBlock(4);
  const env = cofferEnv({ home, portRange: block.env, extra });
  const paths = cofferPaths(home);
  const ensure = () => ensureDaemon(paths, { binaryPath: binPath, env, timeoutMs: 45_000 });
  return { home, block, env, paths, ensure };
}

function writeStaleRecord(home: string, fields: { pid: number; port: number }): void {
  ensurePrivateDir(home);
  writeFileSync(
    join(home, 'daemon.json'),
    JSON.stringify({
      version: 1,
      pid: fields.pid,
      port: fields.port,
      token: 'stale-token-stale-token-stale-to',
      started_at: '2026-01-01T00:00:00.000Z',
      binary_path: binPath,
      some_future_field: true,
    }),
    { mode: 0o600 },
  );
}

describe('findDaemon / ensureDaemon', () => {
  it('missing daemon.json → spawns a daemon; the next call connects to it', async () => {
    const { home, paths, ensure } = await setup();
    expect(await findDaemon(paths)).toBeUndefined();
    expect((await inspectDaemon(paths)).state).toBe('missing');

    const first = await ensure();
    expect(first.spawned).toBe(true);
    expect(isProcessAlive(first.pid)).toBe(true);
    expect(first.mcpUrl).toBe(`http://127.0.0.1:${first.port}/mcp`);
    expect(readDaemonJson(home)?.['pid']).toBe(first.pid);

    const second = await ensure();
    expect(second).toMatchObject({ spawned: false, pid: first.pid, token: first.token });
    const found = await findDaemon(paths);
    expect(found?.pid).toBe(first.pid);

    const health = await fetch(`${first.baseUrl}/healthz`);
    expect(health.status).toBe(200);
  });

  it('invalid JSON → backs the file up and spawns', async () => {
    const { home, paths, ensure } = await setup();
    ensurePrivateDir(home);
    writeFileSync(join(home, 'daemon.json'), '{"version": 1, "pid": ', { mode: 0o600 });
    expect(await inspectDaemon(paths)).toMatchObject({ state: 'invalid' });
    expect(await findDaemon(paths)).toBeUndefined();
    // findDaemon never touches the file
    expect(readdirSync(home).filter((name) => name.startsWith('daemon.json.bak-'))).toEqual([]);

    const daemon = await ensure();
    expect(daemon.spawned).toBe(true);
    const backups = readdirSync(home).filter((name) => name.startsWith('daemon.json.bak-'));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(/^daemon\.json\.bak-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
    expect(readFileSync(join(home, backups[0]!), 'utf8')).toBe('{"version": 1, "pid": ');
    expect(readDaemonJson(home)?.['pid']).toBe(daemon.pid);
  });

  it('dead pid → spawns', async () => {
    const { home, block, paths, ensure } = await setup();
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await exited(gone);
    writeStaleRecord(home, { pid: gone.pid!, port: block.last });
    expect(await inspectDaemon(paths)).toMatchObject({ state: 'dead' });
    expect(await findDaemon(paths)).toBeUndefined();

    const daemon = await ensure();
    expect(daemon.spawned).toBe(true);
    expect(daemon.pid).not.toBe(gone.pid);
  });

  it('live pid that is not a coffer-daemon (recycled) → spawns, and leaves that process alone', async () => {
    const { home, block, paths, ensure } = await setup();
    const sleeper = tracker.child(spawn('sleep', ['120'], { stdio: 'ignore' }));
    // Something even listens on the port, so only the process check can tell.
    const { createServer } = await import('node:net');
    const listener = createServer().listen(block.last, '127.0.0.1');
    await new Promise((resolveListen) => listener.once('listening', resolveListen));
    try {
      writeStaleRecord(home, { pid: sleeper.pid!, port: block.last });
      expect(await inspectDaemon(paths)).toMatchObject({ state: 'foreign' });
      expect(await findDaemon(paths)).toBeUndefined();

      const daemon = await ensure();
      expect(daemon.spawned).toBe(true);
      expect(daemon.pid).not.toBe(sleeper.pid);
      expect(isProcessAlive(sleeper.pid!)).toBe(true);
    } finally {
      await new Promise((resolveClose) => listener.close(resolveClose));
    }
  });

  it("a home copied with its daemon.json → spawns its own daemon, and leaves the original's alone", async () => {
    const original = await setup();
    const first = await original.ensure();
    expect(readDaemonJson(original.home)).toMatchObject({ home: realpathSync(original.home) });
    const copy = await setup();
    writeFileSync(
      join(copy.home, 'daemon.json'),
      readFileSync(join(original.home, 'daemon.json')),
      {
        mode: 0o600,
      },
    );
    expect(await inspectDaemon(copy.paths)).toMatchObject({ state: 'elsewhere' });
    expect(await findDaemon(copy.paths)).toBeUndefined();

    const own = await copy.ensure();
    expect(own.spawned).toBe(true);
    expect(own.pid).not.toBe(first.pid);
    expect(isProcessAlive(first.pid)).toBe(true);
    expect(await findDaemon(original.paths)).toMatchObject({ pid: first.pid });
  });

  it('coffer-daemon pid whose port refuses TCP → spawns', async () => {
    const { home, block, paths, ensure } = await setup();
    const fake = tracker.child(spawnFakeDaemon());
    await waitForTitle(fake.pid!);
    writeStaleRecord(home, { pid: fake.pid!, port: block.last });
    expect(await inspectDaemon(paths)).toMatchObject({ state: 'unreachable' });
    expect(await findDaemon(paths)).toBeUndefined();

    const daemon = await ensure();
    expect(daemon.spawned).toBe(true);
    expect(daemon.pid).not.toBe(fake.pid);
    expect(daemon.port).toBe(block.first);
  });

  it('reports why a spawned daemon could not start', async () => {
    const { paths, env } = await setup();
    await expect(
      ensureDaemon(paths, {
        binaryPath: binPath,
        env: { ...env, COFFER_PORT_RANGE: 'nonsense' },
        timeoutMs: 45_000,
      }),
    ).rejects.toMatchObject({
      code: 'DAEMON_UNAVAILABLE',
      message: expect.stringMatching(/exited \(code 2\) before serving: COFFER_PORT_RANGE must be/),
    });
  });

  it('a spawned daemon still starting is waited for, though daemon.json names another meanwhile', async () => {
    // The first daemon checks its file only hourly, so only the stand-in below rewrites it.
    const { home, paths, env, ensure } = await setup({ COFFER_DAEMON_FILE_CHECK_MS: '3600000' });
    const first = await ensure();
    const record = readFileSync(join(home, 'daemon.json'), 'utf8');
    rmSync(join(home, 'daemon.json'));
    // The spawned "daemon" plays the race: the first daemon's file reappears while the
    // new one is still starting, and the new one then gives up (as it does when it finds
    // a live daemon named at its start).
    const standIn = join(home, 'slow-start.mjs');
    writeFileSync(
      standIn,
      [
        "import { writeFileSync } from 'node:fs';",
        'writeFileSync(process.env.STAND_IN_PID_FILE, String(process.pid));',
        "writeFileSync(process.env.COFFER_HOME + '/daemon.json', process.env.STAND_IN_RECORD);",
        'setTimeout(() => process.exit(3), 1000);',
      ].join('\n'),
    );
    const pidFile = join(home, 'stand-in.pid');
    const found = await ensureDaemon(paths, {
      binaryPath: standIn,
      env: { ...env, STAND_IN_PID_FILE: pidFile, STAND_IN_RECORD: record },
      timeoutMs: 45_000,
    });
    const standInPid = Number(readFileSync(pidFile, 'utf8'));
    expect(found).toMatchObject({ pid: first.pid, spawned: false });
    expect(isProcessAlive(standInPid)).toBe(false);
  });

  it('10 processes calling ensureDaemon at once → exactly one daemon', async () => {
    const { home, env } = await setup();
    const script = [
      `const { ensureDaemon } = await import(${JSON.stringify(distDiscovery)});`,
      `const paths = (await import(${JSON.stringify(distDiscovery.replace(/discovery[/\\]index\.js$/, 'config/home.js'))})).cofferPaths(process.env.COFFER_HOME);`,
      `const d = await ensureDaemon(paths, { binaryPath: ${JSON.stringify(binPath)}, timeoutMs: 50000 });`,
      'process.stdout.write(JSON.stringify({ pid: d.pid, port: d.port, spawned: d.spawned }));',
    ].join('\n');
    const runs = Array.from({ length: 10 }, () => {
      const child = tracker.child(
        spawn(process.execPath, ['--input-type=module', '-e', script], {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      return exited(child).then((exit) => ({ exit, out, err }));
    });
    const results = await Promise.all(runs);
    for (const result of results)
      expect(result.exit, result.err).toEqual({ code: 0, signal: null });
    const found = results.map(
      (result) => JSON.parse(result.out) as { pid: number; port: number; spawned: boolean },
    );
    expect(new Set(found.map((entry) => entry.pid)).size).toBe(1);
    expect(found.filter((entry) => entry.spawned)).toHaveLength(1);
    expect(daemonPidsLogged(home)).toEqual([found[0]!.pid]);
  });
});
